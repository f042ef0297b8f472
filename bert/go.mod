module github.com/ragkit/ragkit/bert

go 1.24.0

require golang.org/x/sys v0.35.0

replace github.com/ragkit/ragkit => ..

replace github.com/ragkit/ragkit/tokencount/hf => ../tokencount/hf
