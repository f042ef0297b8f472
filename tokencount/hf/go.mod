module github.com/ragkit/ragkit/tokencount/hf

go 1.26.0

require (
	github.com/ragkit/ragkit v0.0.0
	github.com/rivo/uniseg v0.4.7
	golang.org/x/text v0.44.0
)

replace github.com/ragkit/ragkit => ../..
