// Package memory is ragkit's in-memory vector store, the embedded
// default: a [Store] implements every interface of package
// [github.com/ragkit/ragkit/vectorstore] (vector search, keyword search by
// BM25, both at once, document replacement and listing) and saves to and
// loads from a file.
//
//	store, _ := memory.New(memory.Config{})
//	store.Upsert(ctx, records...)
//	hits, err := store.Query(ctx, vector, 5, vectorstore.Filter{})
//	err = store.SaveFile(ctx, "index.rkv")
//	loaded, err := memory.LoadFile(ctx, "index.rkv", memory.Config{})
//
// The knobs are in [Config]: Compact (int8 codes, under a third of the
// memory per vector), Workers (the goroutines a query's scan may use),
// Keywords (the BM25 parameters and analysis, [KeywordConfig]) and Index
// (an approximate index for large stores, [IndexConfig]). The zero
// Store is ready to use.
//
// # How it searches
//
// [New] returns a [Store]; the zero Store is one too. Its
// [Store.Query] is exact cosine search (its hits, like every store's,
// carry no vectors): vectors are normalised once when
// they are upserted, kept in one contiguous slab, and a query is one
// streaming pass of dot products, shared by as many goroutines as the work
// keeps busy, each keeping a bounded heap of its best k. Its cost is that
// of one pass over the slab, close to a bare parallel dot-product loop
// over the same data. With [Config].Compact the slab holds int8
// codes (plus 2-bit refinement codes for the re-rank), under a third of
// the memory per vector, scanned with AVX2 kernels on amd64, at a recall
// against exact search close to 1. benchmarks/README.md in the repository
// has the measured figures: query times against a bare loop and against
// chromem-go (in the configuration stated there), memory per record,
// recall (https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#vector-search).
//
// [Store.Range] answers "units from..to of document D" from a per-document
// index in O(log n + results), with the records' vectors; sentence
// windows are built from it. [Store.ReplaceDocument] re-indexes a
// changed document in one step, so no reader sees old and new units mixed
// (the optional [vectorstore.DocumentReplacer] interface), and [Store.DocumentIDs]
// lists the documents held (the optional [vectorstore.DocumentLister] interface), so
// that documents gone from their source can be pruned. [Store.Save] and [Load] write and
// read a versioned, checksummed binary format; [Store.SaveFile] replaces
// its file atomically.
//
// [Store] answers a filter from an index of its records' metadata values
// (for each key, the records of each value; for a range, the values sorted),
// built by the first filtered query after a write: the filter becomes a set
// of records by set operations on those lists, and the search reads only
// the records in the set, so a filter that keeps 1% of the store makes a
// query many times cheaper, not dearer (README.md in this directory has
// the figures).
//
// # Approximate search
//
// A store of hundreds of thousands of records or more can answer
// [Store.Query] from an approximate index instead of a scan, turned on by
// [Config].Index (the zero value is exact search, the default and the
// reference):
//
//	store, _ := memory.New(memory.Config{Compact: true, Index: memory.IndexConfig{IVF: true}})
//
// The index is an inverted file (IVF): once the store holds
// [IndexConfig].MinRecords records (10,000 by default), k-means (eight
// iterations over a sample of 48 vectors per list, from a fixed seed, so
// that equal stores get equal indexes) finds about sqrt(n) centroids, and
// every record joins the list of its nearest one. A query ranks the
// centroids and scans the records of the [IndexConfig].Probes nearest
// lists (the search width: [DefaultProbes], or [Store.SetProbes] on a live
// store) with the store's own codes, int8 in a compact store, then
// re-ranks its best candidates against the refined vectors as the exact
// compact scan does; probing every list gives exactly the exact search's
// result. A width whose lists hold over a fifth of the store is
// answered by the exact scan, which then reads them faster (the lists'
// records are read one at a time, the scan's in contiguous blocks). A filter is tested inside the list scan, and the scan goes on
// to further lists until it has scored as many records that pass as an
// unfiltered query scores, so a filter neither returns fewer hits than
// match nor loses recall; a filter selective enough that its records are
// fewer than twice that is answered by an exact scan of them from the
// metadata index, which is then about as cheap, and exact. Keyword search does not
// use the index; the vector half of [Store.QueryHybrid] does, as
// [Store.Query].
//
// IVF rather than a graph (HNSW): a filter costs one bit test per record
// in the scan, where a graph walk that skips filtered nodes loses its way
// (filtered HNSW that returns too few rows is a known failure of graph
// indexes); a write is a nearest-centroid lookup (an insert joins its
// nearest list, a replaced vector moves, a delete leaves its list) rather
// than a graph repair; and the build is a few passes over a sample. The
// lists drift as the data changes: a write that leaves the store four
// times larger or smaller than when the index was trained retrains it
// (under the write lock, so that write takes the build's time; a store
// shrunk below MinRecords drops it and is searched exactly), and
// [Store.Retrain] retrains on demand. The index costs 12 bytes a record.
// [Store.Save] writes it with the records and [Load] installs it without
// training (a store loaded without [IndexConfig].IVF drops it; one loaded
// with it from a file without an index trains one). On vectors without
// neighbourhoods (random directions) no index is good and the recall at
// the default width is low: measure it on your own vectors (the
// benchmarks' annbench does).
//
// # Keyword search and hybrid search
//
// A [Store] also keeps an inverted index of its records' texts (with the
// words of their Notes.Keywords, such as the header a chunk was
// embedded with), changed by the same writes under the same lock as the
// vectors, so that a reader never sees one without the other (a
// [Store.ReplaceDocument] included).
// [Store.QueryKeywords] (the optional [vectorstore.KeywordQuerier] interface) ranks
// the records that share a term with the query by BM25, with the [vectorstore.Filter]
// of a vector query, and finds what a vector misses: an application
// number, a product code, an error string, a surname. Texts and queries
// are cut into terms alike: the words of [segment.Words] that hold a
// letter or a digit, case-folded, apostrophes dropped, and the English
// stop words that the lexical embedder leaves out of its unigrams left out (unless
// [KeywordConfig.KeepStopWords]); characters of scripts written without
// spaces (Chinese, Japanese, Thai) are taken in overlapping pairs, so
// that CJK text is searchable without a dictionary. The score of a record
// for a query of terms t is
//
//	sum over t of idf(t) * tf*(k1+1) / (tf + k1*(1 - b + b*length/avgLength))
//	idf(t) = ln(1 + (n - df(t) + 0.5) / (df(t) + 0.5))
//
// where tf is how often t occurs in the record's text, length its number
// of terms, avgLength the mean over the store, n the number of records
// and df(t) the number of them that hold t; k1 and b are
// [KeywordConfig.K1] and [KeywordConfig.B] (1.2 and 0.75 by default, as
// in Lucene). A query term counts once however often it is repeated. The
// index is not saved: [Load] rebuilds it from the texts, so files written
// before it existed load unchanged.
//
// Combining the vector and the keyword search (fusion, hybrid search) is
// the query side's job, package retrieve's Retriever: a store takes part
// by implementing [vectorstore.KeywordQuerier] (a database adapter, with its
// full-text index), and [vectorstore.HybridQuerier] to run both searches over the
// same records, as [Store] does under one read lock.
//
// # Persistence
//
// The format (version 2) is a 36-byte header, "RAGKITVS", the version,
// flags (compact or not), the dimension and the record count, followed by
// the header's CRC-32C; then the records in order of DocID, Index and ID
// (so equal stores give equal files), each as its strings, Index, Start,
// End, sorted metadata and vector; then the CRC-32C of all record bytes.
// Whatever [Store.Save] writes, [Load] reads back to an equal store,
// dimension included. Load checks both checksums and every field and
// builds the store aside, so damaged data gives an error wrapping
// [ErrCorrupt] and no store; a future format gives [ErrVersion]. Files of
// version 1 (without Start and End) still load, with zero offsets. A
// float32 file can be loaded into a compact store. A store with a trained
// approximate index sets flag 2 and writes the index after the records:
// the number of lists, the size it was trained at, each centroid's scale
// and int8 codes, each record's list in the order of the records, and the
// section's CRC-32C.
package memory
