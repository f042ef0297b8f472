module github.com/ragkit/ragkit/formats

go 1.26.0

require (
	github.com/ragkit/ragkit v0.0.0
	golang.org/x/text v0.44.0
)

require (
	github.com/stretchr/testify v1.12.1
	golang.org/x/net v0.63.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect

replace github.com/ragkit/ragkit => ..
