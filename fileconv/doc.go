// Package fileconv converts arrays stored in files and streams with OpenCL C
// conversion semantics: NumPy .npy files and raw little-endian binary, of any
// size, in constant memory, on all cores, through the slice kernels of package
// convert. It is the library behind `clconv convert` and `clconv inspect`.
//
// # Streaming
//
// Convert reads its input in chunks of about a megabyte, converts the chunks
// in parallel (one goroutine per core, each calling convert.Bytes on its
// chunk) and writes them in order. A fixed number of chunk buffers circulates
// between the reader, the workers and the writer, so memory stays constant
// however large the file is. Elements are converted independently, so C and
// Fortran order need nothing but keeping the fortran_order flag; big-endian
// input is byte-swapped in the worker before conversion. Raw input is
// little-endian, and output is always little-endian ('<' in a .npy header), on
// every host: a big-endian host swaps in the worker and inside convert.Bytes.
//
// # The .npy parser
//
// clconv reads and writes .npy headers itself (ReadHeader, EncodeHeader)
// instead of using codeberg.org/sbinet/npyio, because npyio does not fit this
// job: its Reader decodes the whole array into a Go slice through reflection,
// element by element (no chunked access to the data, so no constant-memory
// streaming); its header parser finds keys by substring search, allocates
// whatever length the header field claims, and knows format versions 1 and 2
// but not 3; and it brings gonum into the build. The format is small
// (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// magic, version, a little-endian length and a Python dict literal with the
// keys descr, fortran_order and shape. ReadHeader parses that literal strictly
// (each key once, nothing else, Python syntax for strings, booleans and
// tuples), bounds the header at MaxHeaderLen bytes and MaxDims dimensions,
// rejects shapes whose byte size overflows an int64, and reports every problem
// as a *FormatError with the byte offset. It is fuzzed (FuzzNpyHeader).
//
// # Statistics
//
// With Options.Stats, Convert counts, exactly and per element, what the
// conversion did to the values: see Stats for the definition of each counter.
//
// # Safety
//
// AtomicFile writes the output to a temporary file beside its destination and
// renames it into place only on success; the command line tool uses it so that
// an error or an interrupt never leaves partial output behind.
package fileconv
