module github.com/ragkit/ragkit/benchmarks

go 1.26

replace github.com/ragkit/ragkit => ../

require (
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	github.com/ragkit/ragkit v0.0.0-00010101000000-000000000000
	github.com/tiktoken-go/tokenizer v0.10.0
)

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
