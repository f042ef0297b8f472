package stem

// IsStop reports whether w is one of the very common English words that
// say little about a text's topic on their own ("the", "of", "and"). Both
// the keyword index and the offline embedder leave them out unless told
// to keep them, so they share this one list.
func IsStop(w []byte) bool { return stopWords[string(w)] }

// stopWords are very common English words that say little about a text's
// topic on their own.
var stopWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range []string{
		"a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at",
		"be", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does",
		"for", "from", "had", "has", "have", "he", "her", "here", "hers", "him", "his", "how",
		"i", "if", "in", "into", "is", "it", "its", "just", "me", "more", "most", "my", "no",
		"nor", "not", "now", "of", "on", "only", "or", "other", "our", "out", "over", "own",
		"she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then",
		"there", "these", "they", "this", "those", "through", "to", "too", "under", "up",
		"upon", "us", "very", "was", "we", "were", "what", "when", "where", "which", "while",
		"who", "whom", "why", "will", "with", "would", "you", "your",
	} {
		m[w] = true
	}
	return m
}()
