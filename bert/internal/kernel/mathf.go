package kernel

import "math"

// Softmax replaces row, which must not be empty, by softmax(scale·row),
// scale positive: e^(scale·(x-max)) over their sum.
func Softmax(row []float32, scale float32) {
	mx := row[0]
	for _, x := range row[1:] {
		mx = max(mx, x)
	}
	n8 := len(row) &^ 7
	if useFMA && n8 > 0 {
		expShiftedAVX2(&row[0], n8, mx, scale)
	} else {
		n8 = 0
	}
	for i := n8; i < len(row); i++ {
		row[i] = Exp32((row[i] - mx) * scale)
	}
	var sum float64
	for _, e := range row {
		sum += float64(e)
	}
	inv := float32(1 / sum)
	for i := range row {
		row[i] *= inv
	}
}

// GELU replaces each value of x by x·Φ(x), BERT's exact "gelu", to within
// float32's rounding (see gelu32).
func GELU(x []float32) {
	n8 := len(x) &^ 7
	if useFMA && n8 > 0 {
		geluAVX2(&x[0], n8)
	} else {
		n8 = 0
	}
	for i := n8; i < len(x); i++ {
		x[i] = gelu32(x[i])
	}
}

// Exp32 is e^x in float32 to within a few units in the last place, for
// the softmax and GELU: a range reduction to x = n·ln2 + r, |r| ≤ ln2/2,
// and a degree-6 Taylor polynomial for e^r (its error, r⁷/7!, is below
// float32's rounding). Several times faster than math.Exp, which works in
// float64 and checks for every special case.
func Exp32(x float32) float32 {
	switch {
	case x < -87:
		// Clamped at e^-87, float32's smallest normal magnitude, as the
		// vector code clamps: no softmax tells it from 0.
		x = -87
	case x > 88:
		return float32(math.Inf(1))
	case x != x:
		return x
	}
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375 // ln2's first bits, exact in float32
		ln2lo = -2.12194440e-4
	)
	// n = round(x·log₂e), by truncation toward zero of a value moved half
	// away from it (a conversion, cheaper than math.Floor's call).
	f := x * log2e
	var ni int32
	if f >= 0 {
		ni = int32(f + 0.5)
	} else {
		ni = int32(f - 0.5)
	}
	n := float32(ni)
	r := x - n*ln2hi - n*ln2lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720))))))
	return p * math.Float32frombits(uint32(ni+127)<<23)
}

// gelu32 is x·Φ(x) = x/2·(1 + erf(x/√2)), with erf from Abramowitz and
// Stegun's 7.1.26 (absolute error below 1.5e-7) on exp32: the exact GELU
// of BERT's "gelu" to within float32's rounding of the activations.
func gelu32(x float32) float32 {
	z := x * (1 / math.Sqrt2)
	a := z
	if a < 0 {
		a = -a
	}
	const (
		p  = 0.3275911
		a1 = 0.254829592
		a2 = -0.284496736
		a3 = 1.421413741
		a4 = -1.453152027
		a5 = 1.061405429
	)
	t := 1 / (1 + p*a)
	erf := 1 - t*(a1+t*(a2+t*(a3+t*(a4+t*a5))))*Exp32(-a*a)
	if z < 0 {
		erf = -erf
	}
	return 0.5 * x * (1 + erf)
}
