//go:build !opencl || !cgo

package opencl

// Built reports whether this build has OpenCL support (build tag opencl).
const Built = false

// Platforms returns ErrNotBuilt: this build has no OpenCL support.
func Platforms() ([]*Platform, error) { return nil, ErrNotBuilt }

// Devices returns ErrNotBuilt.
func (p *Platform) Devices() ([]*Device, error) { return nil, ErrNotBuilt }

// Context is an OpenCL context with one queue (unavailable in this build).
type Context struct{ Device *Device }

// NewContext returns ErrNotBuilt.
func NewContext(d *Device) (*Context, error) { return nil, ErrNotBuilt }

// Release does nothing.
func (c *Context) Release() {}

// Program is a built OpenCL program (unavailable in this build).
type Program struct{}

// Build returns ErrNotBuilt.
func (c *Context) Build(src, options string) (*Program, error) { return nil, ErrNotBuilt }

// BuildBinary returns ErrNotBuilt.
func (c *Context) BuildBinary(bin []byte, options string) (*Program, error) { return nil, ErrNotBuilt }

// Binary returns ErrNotBuilt.
func (p *Program) Binary() ([]byte, error) { return nil, ErrNotBuilt }

// Release does nothing.
func (p *Program) Release() {}

// Kernel is one kernel of a program (unavailable in this build).
type Kernel struct{ Name string }

// Kernel returns ErrNotBuilt.
func (p *Program) Kernel(name string) (*Kernel, error) { return nil, ErrNotBuilt }

// Release does nothing.
func (k *Kernel) Release() {}

// SetArgs returns ErrNotBuilt.
func (k *Kernel) SetArgs(args ...any) error { return ErrNotBuilt }

// WorkGroupSize returns ErrNotBuilt.
func (k *Kernel) WorkGroupSize() (int, error) { return 0, ErrNotBuilt }

// Run returns ErrNotBuilt.
func (c *Context) Run(k *Kernel, global, local int) error { return ErrNotBuilt }

// Finish returns ErrNotBuilt.
func (c *Context) Finish() error { return ErrNotBuilt }

// Buffer is a device memory object (unavailable in this build).
type Buffer struct{ Size int }

// NewBuffer returns ErrNotBuilt.
func (c *Context) NewBuffer(size int) (*Buffer, error) { return nil, ErrNotBuilt }

// Release does nothing.
func (b *Buffer) Release() {}

// Write returns ErrNotBuilt.
func (c *Context) Write(b *Buffer, data []byte) error { return ErrNotBuilt }

// Read returns ErrNotBuilt.
func (c *Context) Read(b *Buffer, data []byte) error { return ErrNotBuilt }
