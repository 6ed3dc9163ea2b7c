// The oracle checks: clconv's bfloat16 and OCP formats against independent
// public implementations. A module of its own (directories starting with _
// are ignored by the go tool) so that the main module depends on none of
// them; scripts/oracles.sh runs them.
module github.com/clconv/clconv/_oracle

go 1.26.0

require github.com/clconv/clconv v0.0.0

require github.com/gomlx/gopjrt v0.10.0

replace github.com/clconv/clconv => ../
