module github.com/ragkit/ragkit/bert

go 1.24.0

require (
	github.com/ragkit/ragkit/tokencount/hf v0.0.0-00010101000000-000000000000
	golang.org/x/sys v0.35.0
)

require (
	github.com/ragkit/ragkit v0.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/text v0.28.0 // indirect
)

replace github.com/ragkit/ragkit => ..

replace github.com/ragkit/ragkit/tokencount/hf => ../tokencount/hf
