package loader_test

import (
	"strings"
	"testing"

	"github.com/ragkit/ragkit/loader"
)

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		data string
		want loader.Content
	}{
		{"empty", "", loader.ContentText},
		{"markdown", "# Title\n\nText.\n", loader.ContentText},
		{"invalid UTF-8 is still text", "caf\xe9\n", loader.ContentText},
		{"pdf", "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", loader.ContentPDF},
		{"docx", "PK\x03\x04\x14\x00\x06\x00", loader.ContentZip},
		{"empty zip", "PK\x05\x06" + string(make([]byte, 18)), loader.ContentZip},
		{"gzip", "\x1f\x8b\x08\x00", loader.ContentGzip},
		{"encrypted docx", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", loader.ContentOLE},
		{"utf-16", "\xff\xfeh\x00i\x00", loader.ContentBinary},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00", loader.ContentBinary},
		{"elf", "\x7fELF\x02\x01", loader.ContentBinary},
		{"nul byte", "text\x00more", loader.ContentBinary},
		{"nul after the sniffed bytes", strings.Repeat("a", 8<<10) + "\x00", loader.ContentText},
	}
	for _, tt := range tests {
		if got := loader.Sniff([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: Sniff = %q, want %q", tt.name, got, tt.want)
		}
	}
}
