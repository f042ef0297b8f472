module github.com/ragkit/ragkit/examples/inspector

go 1.25

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/ragkit/ragkit v0.0.0-00010101000000-000000000000
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/ragkit/ragkit => ../..
