package verify

import (
	_ "embed"
	"strings"
	"sync"
)

// The reference digests of every class of conversions, chunk by chunk, as
// computed by digest.Compute: a full device run compares with these and does
// no CPU-side exhaustive work. `go generate ./cmd/clconv/internal/verify`
// completes the file if classes are missing (and is instant when none are);
// recompute it all with `go run ./internal/mkref -fresh -o reference.tsv` in
// this directory (about 45 minutes on 2 cores, 10 on 16).
// TestShippedReference re-derives every 8/16-bit-source line and one chunk
// of every other line, and checks every 32-bit-source line against the
// digests recorded by the exhaustive run (convert/testdata); with -long it
// recomputes one line in seven in full.
//
//go:generate go run ./internal/mkref -o reference.tsv
//go:generate go run ./internal/mkref -quick quick.tsv
//go:embed reference.tsv
var shippedText string

var shipped struct {
	once sync.Once
	rc   *RefCache
	err  error
}

// Shipped returns the reference digests shipped inside clconv (one line per
// class of equivalent conversions). Run consults them unless
// Options.NoShipped is set. The cache is shared: do not add to it.
func Shipped() (*RefCache, error) {
	shipped.once.Do(func() {
		shipped.rc, shipped.err = readRefCache(strings.NewReader(shippedText), "cmd/clconv/internal/verify/reference.tsv")
	})
	return shipped.rc, shipped.err
}
