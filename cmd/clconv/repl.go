package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

func init() { subcommands = append(subcommands, newReplCmd) }

const replHelp = `Type OpenCL C: declarations, statements, expressions, function definitions and
preprocessor directives. State is kept: variables, functions, macros and the rounding
mode. A declaration shows the variables it declares, an assignment the value assigned,
an expression its value; the last ';' of an input may be left out. An input that is not
finished (an open brace or parenthesis, a trailing operator) continues on the next
line; an empty line then shows what is missing.

  :vars    show every variable declared so far
  :bits    show bit patterns (toggles)
  :warn    show warnings (toggles)
  :mode    show the rounding mode in force
  :reset   forget everything
  :help    this text
  :quit    leave (or Ctrl-D); Ctrl-C abandons the current input or stops a running one

Example:
  clc> float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);
  f = (float4)(-5, 254.5, 254.6, 1.2e+09)
  clc> convert_uchar4_sat_rte(f)
  (uchar4)(0, 254, 255, 255)
  clc> #pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
  clc> #pragma OPENCL SELECT_ROUNDING_MODE rtz
  clc[rtz]> 1.0f / 3.0f
  (float)0.3333333`

func newReplCmd() *cobra.Command {
	var opts runOptions
	cmd := &cobra.Command{
		Use:   "repl [--bits] [--warn=false] [--mode M]",
		Short: "An interactive OpenCL C prompt with line editing and history",
		Long: `repl reads OpenCL C a line at a time and evaluates it as it comes, keeping
variables, functions, macros and the rounding mode from one input to the next.
On a terminal it edits lines (arrows, Home/End, Ctrl-A/E/K/U/W) and recalls earlier
inputs with the up and down arrows; on a pipe it reads lines without prompts, and
the exit status is 1 when an input had an error (an interactive session exits 0).

` + replHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRepl(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), &opts)
		},
	}
	opts.addFlags(cmd)
	// At a prompt warnings help more than they clutter.
	cmd.Flags().Lookup("warn").DefValue = "true"
	opts.warn = true
	return cmd
}

// replSession is the state of a REPL: the interpreter, the lines of an
// unfinished input and the line numbering.
type replSession struct {
	in      *clc.Interp
	opts    *runOptions
	pending []string
	start   int // the line number of pending[0]
	line    int // the number the next line gets
	out     io.Writer
	errw    io.Writer
	failed  bool // an input had an error, or a command was unknown
}

func newReplSession(opts *runOptions, out, errw io.Writer) (*replSession, error) {
	s := &replSession{opts: opts, out: out, errw: errw, line: 1}
	return s, s.reset()
}

func (s *replSession) reset() error {
	in, err := s.opts.interp()
	if err != nil {
		return err
	}
	in.Warn = func(e *clc.Error) {
		if s.opts.warn {
			fmt.Fprintln(s.errw, e.Detail())
		}
	}
	s.in, s.pending = in, nil
	return nil
}

// prompt returns the prompt for the next line.
func (s *replSession) prompt() string {
	if len(s.pending) > 0 {
		return "...> "
	}
	if m := s.in.RoundingMode(); m != round.RTE {
		return "clc[" + m.String() + "]> "
	}
	return "clc> "
}

// feed takes one line of input and reports whether the session should end.
func (s *replSession) feed(line string) (quit bool) {
	line = strings.TrimSuffix(line, "\r")
	n := s.line
	s.line++
	trimmed := strings.TrimSpace(line)
	if len(s.pending) == 0 {
		if trimmed == "" {
			return false
		}
		if strings.HasPrefix(trimmed, ":") {
			return s.command(trimmed)
		}
		s.start = n
	}
	s.pending = append(s.pending, line)
	s.run(trimmed != "") // an unfinished input waits for more lines
	return false
}

// run runs the pending input and shows what it gives. If the input is
// unfinished and wait is set, it keeps the input and reports false.
func (s *replSession) run(wait bool) bool {
	src := strings.Join(s.pending, "\n")
	results, err := s.in.Exec("<repl>", s.start, src)
	if err != nil && clc.IsIncomplete(err) && wait {
		return false
	}
	s.pending = nil
	for _, r := range results {
		var b []byte
		if r.Name != "" {
			b = append(b, r.Name...)
			b = append(b, " = "...)
		}
		b = value.AppendFormat(b, r.Value, s.opts.bits)
		b = append(b, '\n')
		s.out.Write(b)
	}
	if err != nil {
		s.failed = true
		printErrors(s.errw, err)
	}
	return true
}

// flush reports an unfinished input at the end of the input.
func (s *replSession) flush() {
	if len(s.pending) > 0 {
		s.run(false)
	}
}

// status is runRepl's result on a pipe: exit status 1 if an input failed.
func (s *replSession) status() error {
	if s.failed {
		return exitStatus(exitBad)
	}
	return nil
}

// cancel abandons an unfinished input.
func (s *replSession) cancel() { s.pending = nil }

func (s *replSession) command(cmd string) (quit bool) {
	switch strings.Fields(cmd)[0] {
	case ":q", ":quit", ":exit":
		return true
	case ":help", ":h", ":?":
		fmt.Fprintln(s.out, replHelp)
	case ":vars":
		for _, v := range s.in.Vars() {
			fmt.Fprintf(s.out, "%s = %s\n", v.Name, value.Format(v.Value, s.opts.bits))
		}
	case ":bits":
		s.opts.bits = !s.opts.bits
		fmt.Fprintf(s.out, "bits %s\n", onOff(s.opts.bits))
	case ":warn":
		s.opts.warn = !s.opts.warn
		fmt.Fprintf(s.out, "warnings %s\n", onOff(s.opts.warn))
	case ":mode":
		ext := "disabled"
		if s.in.MacroDefined("__ROUNDING_MODE__") {
			ext = "enabled"
		}
		fmt.Fprintf(s.out, "rounding mode %v (cl_khr_select_fprounding_mode %s)\n", s.in.RoundingMode(), ext)
	case ":reset":
		if err := s.reset(); err != nil {
			fmt.Fprintln(s.errw, err)
		}
		fmt.Fprintln(s.out, "session reset")
	default:
		s.failed = true
		fmt.Fprintf(s.errw, "unknown command %s (try :help)\n", cmd)
	}
	return false
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func runRepl(stdin io.Reader, stdout, stderr io.Writer, opts *runOptions) error {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if out, ok := stdout.(*os.File); ok && term.IsTerminal(int(out.Fd())) {
			return runTerminal(f, out, opts)
		}
	}
	s, err := newReplSession(opts, stdout, stderr)
	if err != nil {
		return fmt.Errorf("repl: %w", err)
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		if s.feed(sc.Text()) {
			return s.status()
		}
	}
	s.flush() // report what an unfinished input lacks
	if err := sc.Err(); err != nil {
		return err
	}
	return s.status()
}

// runTerminal runs the REPL on a terminal with golang.org/x/term's line
// editor. The terminal is in raw mode while a line is read and back in its
// normal mode while the line runs, so that Ctrl-C then interrupts it.
func runTerminal(in, out *os.File, opts *runOptions) error {
	fd := int(in.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("repl: %w", err)
	}
	defer term.Restore(fd, old)
	cr := &ctrlCReader{r: in}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{cr, out}, "clc> ")
	t.History = &history{}
	if w, h, err := term.GetSize(fd); err == nil {
		t.SetSize(w, h)
	}
	var buf bytes.Buffer
	s, err := newReplSession(opts, &buf, &buf)
	if err != nil {
		return fmt.Errorf("repl: %w", err)
	}
	fmt.Fprintf(t, "clconv repl: bit-exact OpenCL C. :help for help, Ctrl-D to leave.\n")
	for {
		t.SetPrompt(s.prompt())
		cr.hit = false
		line, err := t.ReadLine()
		if err != nil && !errors.Is(err, term.ErrPasteIndicator) {
			if err == io.EOF {
				fmt.Fprintln(t)
				return nil
			}
			return err
		}
		if cr.hit {
			s.cancel()
			continue
		}
		buf.Reset()
		term.Restore(fd, old)
		stop := make(chan struct{})
		cancel := interruptOn(stop)
		s.in.Cancel = cancel
		quit := s.feed(line)
		close(stop)
		if _, err := term.MakeRaw(fd); err != nil {
			return err
		}
		select {
		case <-cancel:
			t.Write([]byte("\n")) // after the terminal's ^C
		default:
		}
		t.Write(buf.Bytes())
		if quit {
			return nil
		}
	}
}

// interruptOn returns a channel that is closed when SIGINT arrives before
// stop is closed.
func interruptOn(stop chan struct{}) <-chan struct{} {
	cancel := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		defer signal.Stop(sig)
		select {
		case <-sig:
			close(cancel)
		case <-stop:
		}
	}()
	return cancel
}

// ctrlCReader turns Ctrl-C into "go to the end, erase the line, Enter" for
// the line editor (which would otherwise end the session) and notes that it
// happened, so that the REPL abandons the input.
type ctrlCReader struct {
	r    io.Reader
	hit  bool
	rest []byte
}

func (c *ctrlCReader) Read(p []byte) (int, error) {
	if len(c.rest) == 0 {
		buf := make([]byte, len(p))
		n, err := c.r.Read(buf)
		for _, b := range buf[:n] {
			if b == 3 {
				c.hit = true
				c.rest = append(c.rest, 5, 21, '\r') // ^E ^U Enter
				continue
			}
			c.rest = append(c.rest, b)
		}
		if len(c.rest) == 0 {
			return 0, err
		}
	}
	n := copy(p, c.rest)
	c.rest = c.rest[n:]
	return n, nil
}

// history is the line editor's history: the last 1000 inputs, without
// empty lines and without repeating the previous entry.
type history struct{ lines []string }

const maxHistory = 1000

func (h *history) Add(line string) {
	if strings.TrimSpace(line) == "" || len(h.lines) > 0 && h.lines[len(h.lines)-1] == line {
		return
	}
	h.lines = append(h.lines, line)
	if len(h.lines) > maxHistory {
		h.lines = h.lines[len(h.lines)-maxHistory:]
	}
}

func (h *history) Len() int { return len(h.lines) }

func (h *history) At(i int) string { return h.lines[len(h.lines)-1-i] }
