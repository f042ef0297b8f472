module github.com/ragkit/ragkit/bert

go 1.26.0

require (
	github.com/ragkit/ragkit v0.0.0
	github.com/ragkit/ragkit/tokencount/hf v0.0.0-00010101000000-000000000000
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.35.0
)

require (
	github.com/rivo/uniseg v0.4.7 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/ragkit/ragkit => ..

replace github.com/ragkit/ragkit/tokencount/hf => ../tokencount/hf
