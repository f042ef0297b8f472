module github.com/ragkit/ragkit/examples/inspector

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/ragkit/ragkit v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/jolestar/go-commons-pool/v2 v2.1.2 // indirect
	github.com/klippa-app/go-pdfium v1.21.5 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	golang.org/x/net v0.63.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/ragkit/ragkit/formats v0.0.0
	github.com/ragkit/ragkit/formats/pdf v0.0.0
	github.com/rivo/uniseg v0.4.7 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/ragkit/ragkit => ../..

replace github.com/ragkit/ragkit/formats => ../../formats

replace github.com/ragkit/ragkit/formats/pdf => ../../formats/pdf
