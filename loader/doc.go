// Package loader turns a folder of notes or documentation into
// documents: it walks a folder on disk ([Dir]) or any [fs.FS] ([FS]),
// reads the Markdown and plain-text files, cleans their text, and returns
// one [document.Document] per file together with a report of every file
// it left out and why.
//
// # What a document holds
//
// A document's ID is the file's path relative to the root, with forward
// slashes ("guides/setup.md"), on every system. Its Format is
// [document.FormatOf] of the name, its Title the first top-level heading
// of its outline ([document.NewOutline]) or else the file name without its
// extension, its Source the file's path (for citations; records carry it
// as their Source), and its Metadata the modification time under
// [ModifiedKey]. Documents come sorted by ID, so
// the same tree always loads the same way.
//
// # Which files
//
// Without Config.Include, a file is loaded when its extension is one of
// Markdown's ([document.FormatOf]) or .txt, in any case. Hidden files
// and folders (names that start with a dot) and the dependency and build
// folders of [DefaultSkipDirs] are not walked. Patterns (Config.Include
// and Config.Exclude, see [Match]) choose further: a pattern without a
// slash matches a name at any depth ("*.md", "drafts"), one with a slash
// matches the whole path from the root ("docs/*.md"), and "**" as a whole
// element matches any number of folders ("docs/**/*.md").
//
// # Text
//
// A file is checked before it is read: one larger than Config.MaxBytes
// (10 MiB by default), or that is not a regular file (a device or a
// named pipe, which could block), is skipped without reading. Its text is
// then cleaned: a leading byte-order mark is dropped, control characters
// other than tab, newline and carriage return are removed (so NUL bytes
// never reach a document), and bytes that are not valid UTF-8 are
// replaced with U+FFFD or make the file skipped, as Config.InvalidUTF8
// says. A file with no text left but white space is skipped. The files
// whose text was changed are listed in [Result.Repaired].
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
// the Config's rules leave out, [ErrTooLarge], [ErrInvalidUTF8] and
// [ErrEmpty] for files whose content is not loaded, [ErrUnreadable] for
// what the file system does not give.
package loader
