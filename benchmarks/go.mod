module github.com/ragkit/ragkit/benchmarks

go 1.26.0

replace github.com/ragkit/ragkit => ../

require (
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	github.com/ragkit/ragkit v0.0.0
	github.com/stretchr/testify v1.12.1
	github.com/tiktoken-go/tokenizer v0.10.0
)

require (
	github.com/ragkit/ragkit/tokencount/hf v0.0.0-00010101000000-000000000000 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.35.0 // indirect
)

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/neurosnap/sentences v1.1.2
	github.com/philippgille/chromem-go v0.7.0
	github.com/ragkit/ragkit/bert v0.0.0
	github.com/rivo/uniseg v0.4.7
	github.com/tmc/langchaingo v0.1.14
	gitlab.com/golang-commonmark/html v0.0.0-20191124015941-a22733972181 // indirect
	gitlab.com/golang-commonmark/linkify v0.0.0-20191026162114-a0c2df6c8f82 // indirect
	gitlab.com/golang-commonmark/markdown v0.0.0-20211110145824-bf3e522c626a // indirect
	gitlab.com/golang-commonmark/mdurl v0.0.0-20191124015652-932350d1cb84 // indirect
	gitlab.com/golang-commonmark/puny v0.0.0-20191124015043-9f83538fa04f // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/ragkit/ragkit/bert => ../bert

replace github.com/ragkit/ragkit/tokencount/hf => ../tokencount/hf
