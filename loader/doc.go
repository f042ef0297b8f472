// Package loader turns a folder of documents into [document.Document]s:
// it walks a folder on disk ([Dir]) or any [fs.FS] ([FS]), reads each file
// with the [Parser] for its type, cleans the text, and returns one
// document per file together with a report of every file it left out and
// why.
//
// # What a document holds
//
// A document's ID and Source are the file's path relative to the root,
// with forward slashes ("guides/setup.md"), on every system. Its Text,
// Format, Marks and Metadata are what its parser made of the file
// (Markdown where the format has structure), its Title the parser's, else
// the first top-level heading of its outline ([document.NewOutline]),
// else the file name without its extension; the loader adds the
// modification time under [ModifiedKey]. Records carry the Source as
// theirs, for citations.
// Documents come sorted by ID, so the same tree always loads the same
// way.
//
// # Which files
//
// Every file is a candidate unless Config.Include says which are.
// Hidden files and folders (names that start with a dot) and the
// dependency and build folders of [DefaultSkipDirs] are not walked.
// Patterns (Config.Include and Config.Exclude, see [Match]) choose
// further: a pattern without a slash matches a name at any depth ("*.md",
// "drafts"), one with a slash matches the whole path from the root
// ("docs/*.md"), and "**" as a whole element matches any number of
// folders ("docs/**/*.md").
//
// # Parsers
//
// A candidate is read by the parser of its extension in Config.Parsers
// ([DefaultParsers] by default), and only if the parser reads what the
// file's first bytes say it holds ([Sniff]): a PDF named notes.txt, an
// image or a program is reported, never read as text. A gzipped file
// ("ls.1.gz") is decompressed, within Config.MaxBytes, and read by the
// parser of its name without ".gz". Every candidate that no parser reads
// is reported with [ErrUnsupported] and the reason ("no parser for .pdf:
// see github.com/ragkit/ragkit/formats", "binary"), and
// [Result.NotRead] counts the files left out by extension, for a one-line
// summary. To read more formats, extend the defaults:
//
//	parsers := loader.DefaultParsers()
//	parsers[".org"] = orgParser{} // any Parser
//	res, err := loader.Dir(ctx, "docs", loader.Config{Parsers: parsers})
//
// # Text
//
// A file is checked before it is read: one larger than Config.MaxBytes
// (10 MiB by default), or that is not a regular file (a device or a
// named pipe, which could block), is skipped without reading. A text
// file that is not valid UTF-8 is skipped if Config.InvalidUTF8 is
// [Refuse]. The text a parser returns is then cleaned, its Marks moved
// with it: a leading byte-order mark is dropped, control characters
// other than tab, newline and carriage return are removed, and bytes
// that are not valid UTF-8 are replaced with U+FFFD. A file with no text
// left but white space is skipped. The files whose text was changed are
// listed in [Result.Repaired].
//
// # Links
//
// [Dir] follows symbolic links to files and folders inside the root; a
// link whose target is outside the root is not followed unless
// Config.LinksOutside is set. A dangling link, a link loop (a link to a
// folder that encloses it, or a chain of links with no end) and a link to
// a file or folder that the walk loads under its own path are reported,
// never fatal. [FS] follows links to files as the file system does
// ([os.DirFS] does) but not links to folders, since an fs.FS cannot tell
// where they lead.
//
// # Errors
//
// Only the root can fail a load: a root that does not exist or is not a
// folder is an error wrapping [ErrRoot] (and [fs.ErrNotExist] where that
// is the cause), naming the path. A bad Config is an error wrapping
// [ErrConfig], and a cancelled context stops the walk with the context's
// error. Every other problem is one [Skip] in [Result.Skipped], whose
// Reason wraps one of the sentinels for errors.Is: [ErrLeftOut] for what
// the Config's rules leave out, [ErrUnsupported] for files no parser
// reads, [ErrTooLarge], [ErrInvalidUTF8], [ErrEmpty] and the parsers'
// [ErrFormat] and [ErrNoText] for files whose content is not loaded,
// [ErrUnreadable] for what the file system does not give.
package loader
