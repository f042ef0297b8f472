package kernel

// SetFMA switches the assembly block on or off for a test, where this
// machine and build have it, and returns a function that restores it.
func SetFMA(on bool) (restore func(), ok bool) {
	saved := useFMA
	if on && !saved {
		return func() {}, false
	}
	setFMA(on)
	return func() { setFMA(saved) }, true
}
