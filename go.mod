module github.com/ragkit/ragkit

go 1.24

require (
	github.com/neurosnap/sentences v1.1.2
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	github.com/rivo/uniseg v0.4.7
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.3.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
