package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/value"
)

// MaxDepth bounds the nesting of expressions and statements, so that
// hostile input cannot exhaust the stack (Clang's default bracket depth is
// 256).
const MaxDepth = 1000

// MaxChain bounds the operators of one statement that the parser's loops
// chain (a + b + c ..., a, b, ..., x.y.z ..., x++++): each makes the tree
// one level deeper without nesting in the source, and the checker and the
// evaluator recurse on the tree. The bound is set by the smallest default
// stack of a Go port: js/wasm under node, where V8's stack of about 1 MB
// holds some 30000 Go frames and a deeper recursion is a segmentation fault,
// not an error (TestStackLimits).
const MaxChain = 1 << 13

// parser is a recursive-descent parser over the preprocessor's tokens, with
// precedence climbing for binary operators. It stops at the first error: an
// error panics with bailout, which the entry points recover (as go/parser
// does); no other panic is recovered.
type parser struct {
	pp    *preprocessor
	tok   Token   // the current token
	ahead []Token // tokens after tok already read
	errs  ErrorList
	depth int
	chain int // operators chained in the current statement
	// repl lets the last statement of the input go without its ';', as
	// the REPL's lines do.
	repl bool
}

type bailout struct{}

func (p *parser) read() Token {
	t, err := p.pp.next()
	if err != nil {
		p.errs = append(p.errs, err)
		panic(bailout{})
	}
	return t
}

// next moves to the next token.
func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.tok = p.read()
}

// peek returns the i-th token after the current one (peek(1) is the next).
func (p *parser) peek(i int) Token {
	for len(p.ahead) < i {
		p.ahead = append(p.ahead, p.read())
	}
	return p.ahead[i-1]
}

// errorf reports an error at pos and stops the parse. An error found at the
// end of the input is marked Incomplete: more input might have cured it.
func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Incomplete: p.tok.Kind == EOF})
	panic(bailout{})
}

func (p *parser) expect(k TokenKind, context string) Pos {
	if p.tok.Kind != k {
		p.errorf(p.tok.Pos, "expected %s %s, found %s", k, context, describe(p.tok))
	}
	pos := p.tok.Pos
	p.next()
	return pos
}

// expectSemi consumes the ';' that ends a statement; in REPL mode the end
// of the input will do. It reports whether the ';' was there.
func (p *parser) expectSemi(context string) bool {
	if p.repl && p.tok.Kind == EOF {
		return false
	}
	p.expect(SEMICOLON, context)
	return true
}

// describe names a token in an error message.
func describe(t Token) string {
	switch t.Kind {
	case EOF:
		return "end of input"
	case IDENT, NUMBER:
		return fmt.Sprintf("%q", t.Text)
	}
	return fmt.Sprintf("'%s'", t.Text)
}

// recoverParse turns a bailout into the parser's errors.
func (p *parser) recoverParse(errs *ErrorList) {
	if r := recover(); r != nil {
		if _, ok := r.(bailout); !ok {
			panic(r)
		}
		*errs = p.errs
	}
}

// ParseExpr parses src, named file in positions, as one OpenCL C expression
// (the comma operator included), preprocessed from state st: its
// rounding-mode-dependent nodes get st's mode unless the source selects
// another. Warnings from the preprocessor go to warn if it is not nil.
func ParseExpr(file, src string, st *State, warn func(*Error)) (x Expr, errs ErrorList) {
	if err := sizeError(file, 1, src); err != nil {
		return nil, ErrorList{err}
	}
	p := &parser{pp: newPreprocessor(file, 1, src, st, warn)}
	defer p.recoverParse(&errs)
	p.next()
	x = p.parseExpr()
	if p.tok.Kind != EOF {
		p.errorf(p.tok.Pos, "unexpected %s after the expression", describe(p.tok))
	}
	return x, nil
}

// ParseFile parses src, named file in positions with its first line
// numbered line, as an OpenCL C snippet: preprocessing directives,
// statements and declarations at top level, and function definitions. It
// preprocesses from state st and leaves st as the end of src leaves it.
// Warnings from the preprocessor go to warn if it is not nil. repl lets the
// last statement go without its ';', as the REPL's inputs do.
func ParseFile(file string, line int, src string, st *State, warn func(*Error), repl bool) (f *File, errs ErrorList) {
	if err := sizeError(file, line, src); err != nil {
		return nil, ErrorList{err}
	}
	p := &parser{pp: newPreprocessor(file, line, src, st, warn), repl: repl}
	defer p.recoverParse(&errs)
	p.next()
	f = &File{Name: file}
	for p.tok.Kind != EOF {
		f.Items = append(f.Items, p.parseTopItem())
	}
	return f, nil
}

// sizeError returns the error of a source longer than MaxSource, at the
// first byte past the limit, or nil.
func sizeError(file string, line int, src string) *Error {
	if len(src) <= MaxSource {
		return nil
	}
	head := src[:MaxSource]
	pos := Pos{File: file, Offset: MaxSource, Line: line + strings.Count(head, "\n"),
		Col: MaxSource - strings.LastIndexByte(head, '\n')}
	return &Error{Pos: pos, Msg: fmt.Sprintf("the source is too large (%d bytes): clconv takes at most %d MiB (%d bytes) in one input, and it passes the limit here",
		len(src), MaxSource>>20, MaxSource)}
}

func (p *parser) enter(pos Pos) {
	p.depth++
	if p.depth > MaxDepth {
		p.errorf(pos, "nested too deeply (more than %d levels)", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// chained counts one more chained operator at pos.
func (p *parser) chained(pos Pos) {
	p.chain++
	if p.chain > MaxChain {
		p.errorf(pos, "statement too long (more than %d chained operators)", MaxChain)
	}
}

// Words with a meaning to the parser.
var (
	// qualifiers that clconv accepts: const makes a variable read-only;
	// the others say nothing that matters to values.
	constWords  = map[string]bool{"const": true, "__constant": true, "constant": true}
	ignoreWords = map[string]bool{
		"volatile": true, "__private": true, "private": true, "inline": true, "__inline": true,
		"static": true, "kernel": true, "__kernel": true, "restrict": true,
	}
	addrSpaceWords = map[string]bool{
		"__global": true, "global": true, "__local": true, "local": true, "__generic": true, "generic": true,
	}
	unsupportedWords = map[string]string{
		"struct": "structures", "union": "unions", "enum": "enumerations", "typedef": "typedef",
		"switch": "switch statements", "case": "switch statements", "default": "switch statements",
		"goto": "goto", "extern": "extern declarations", "size_t": "size_t", "ptrdiff_t": "ptrdiff_t",
		"intptr_t": "intptr_t", "uintptr_t": "uintptr_t", "event_t": "events", "image2d_t": "images",
		"sampler_t": "samplers", "printf": "printf",
	}
	statementWords = map[string]bool{
		"if": true, "else": true, "for": true, "while": true, "do": true, "break": true,
		"continue": true, "return": true, "sizeof": true, "vec_step": true, "void": true,
	}
)

// isKeyword reports whether an identifier is reserved.
func isKeyword(s string) bool {
	_, unsup := unsupportedWords[s]
	return statementWords[s] || constWords[s] || ignoreWords[s] || addrSpaceWords[s] || unsup
}

// isTypeWord reports whether an identifier starts a type name.
func isTypeWord(s string) bool {
	switch s {
	case "signed", "unsigned", "void":
		return true
	}
	_, err := cltype.ParseType(s)
	return err == nil
}

// startsDecl reports whether t starts a declaration.
func startsDecl(t Token) bool {
	return t.Kind == IDENT && (isTypeWord(t.Text) || constWords[t.Text] || ignoreWords[t.Text] || addrSpaceWords[t.Text])
}

// badTypeName returns the error for a name that is a scalar type with an
// illegal vector width ("float5", "bool2"), and nil for any other name.
func badTypeName(s string) error {
	base := strings.TrimRight(s, "0123456789")
	if base == s {
		return nil
	}
	if _, err := cltype.ParseKind(base); err != nil {
		return nil
	}
	_, err := cltype.ParseType(s)
	return err
}

// parseTypeName parses a type name: an OpenCL type ("float4", "uint"), a C
// spelling of an integer type ("unsigned int", "signed char", "long int")
// or void.
func (p *parser) parseTypeName() *TypeName {
	start := p.tok.Pos
	var words []string
	for p.tok.Kind == IDENT && isTypeWord(p.tok.Text) {
		words = append(words, p.tok.Text)
		p.next()
	}
	text := strings.Join(words, " ")
	if text == "void" {
		return &TypeName{NamePos: start, Text: text}
	}
	t, ok := typeFromWords(words)
	if !ok {
		if len(words) == 0 {
			p.errorf(start, "expected a type name, found %s%s", describe(p.tok), typeHint(p.tok))
		}
		if len(words) == 1 {
			if err := badTypeName(words[0]); err != nil {
				p.errorf(start, "%v", err)
			}
		}
		p.errorf(start, "invalid type name %q", text)
	}
	return &TypeName{NamePos: start, Text: text, Type: t}
}

// typeFromWords resolves the words of a type name.
func typeFromWords(words []string) (cltype.Type, bool) {
	if len(words) == 1 && words[0] != "signed" && words[0] != "unsigned" {
		t, err := cltype.ParseType(words[0])
		return t, err == nil
	}
	sign := ""
	if len(words) > 0 && (words[0] == "signed" || words[0] == "unsigned") {
		sign, words = words[0], words[1:]
	}
	base := "int"
	switch {
	case len(words) == 0:
	case len(words) == 1 && (words[0] == "char" || words[0] == "short" || words[0] == "int" || words[0] == "long"):
		base = words[0]
	case len(words) == 2 && (words[0] == "short" || words[0] == "long") && words[1] == "int":
		base = words[0]
	default:
		return cltype.Type{}, false
	}
	if sign == "unsigned" {
		base = "u" + base
	}
	t, err := cltype.ParseType(base)
	return t, err == nil
}

// parseSpecifiers parses the qualifiers and the type of a declaration.
func (p *parser) parseSpecifiers() (pos Pos, isConst bool, tn *TypeName) {
	pos = p.tok.Pos
	for p.tok.Kind == IDENT {
		switch w := p.tok.Text; {
		case constWords[w]:
			isConst = true
		case ignoreWords[w]:
		case addrSpaceWords[w]:
			p.errorf(p.tok.Pos, "address space qualifier %s is not supported (clconv has no pointers or memory)", w)
		default:
			// "const flaot x": not C's implicit int when the word is
			// close to a type name.
			if !isTypeWord(w) && p.peek(1).Kind == IDENT {
				if s := TypeSuggestions(w); len(s) > 0 {
					p.errorf(p.tok.Pos, "unknown type %q%s", w, cltype.DidYouMean("", s))
				}
			}
			tn = p.parseTypeName()
			// C allows qualifiers after the type too: "float const x".
			for p.tok.Kind == IDENT && (constWords[p.tok.Text] || ignoreWords[p.tok.Text]) {
				isConst = isConst || constWords[p.tok.Text]
				p.next()
			}
			return pos, isConst, tn
		}
		p.next()
	}
	p.errorf(p.tok.Pos, "expected a type name, found %s%s", describe(p.tok), typeHint(p.tok))
	return
}

// parseTopItem parses a function definition or prototype, a declaration or
// a statement at top level.
func (p *parser) parseTopItem() Node {
	p.chain = 0
	if !startsDecl(p.tok) {
		return p.parseStmt()
	}
	pos, isConst, tn := p.parseSpecifiers()
	if p.tok.Kind == IDENT && p.peek(1).Kind == LPAREN {
		return p.parseFunc(tn)
	}
	return p.parseDeclRest(pos, isConst, tn)
}

// parseFunc parses a function definition or prototype after its result type.
func (p *parser) parseFunc(result *TypeName) *FuncDecl {
	name := p.parseName("function")
	f := &FuncDecl{Result: result, Name: name, Lparen: p.expect(LPAREN, "to open the parameter list")}
	if p.tok.Kind == IDENT && p.tok.Text == "void" && p.peek(1).Kind == RPAREN {
		p.next()
	}
	for p.tok.Kind != RPAREN {
		if len(f.Params) > 0 {
			p.expect(COMMA, "between parameters")
		}
		if !startsDecl(p.tok) {
			p.errorf(p.tok.Pos, "expected a parameter type, found %s%s", describe(p.tok), typeHint(p.tok))
		}
		_, isConst, tn := p.parseSpecifiers()
		prm := &Param{Const: isConst, Type: tn}
		if p.tok.Kind == IDENT {
			prm.Name = p.parseName("parameter")
		}
		p.checkDeclarator()
		f.Params = append(f.Params, prm)
	}
	p.next()
	if p.tok.Kind == SEMICOLON {
		p.next()
		return f
	}
	if p.tok.Kind != LBRACE {
		p.errorf(p.tok.Pos, "expected { or ; after the parameter list of %s, found %s", name.Name, describe(p.tok))
	}
	f.Body = p.parseBlock()
	return f
}

// parseName parses the name a declaration introduces.
func (p *parser) parseName(what string) *Ident {
	t := p.tok
	switch {
	case t.Kind == MUL:
		p.errorf(t.Pos, "pointers are not supported")
	case t.Kind != IDENT:
		p.errorf(t.Pos, "expected a %s name, found %s", what, describe(t))
	case isKeyword(t.Text) || isTypeWord(t.Text):
		p.errorf(t.Pos, "%q is a keyword and cannot name a %s", t.Text, what)
	}
	p.next()
	return &Ident{NamePos: t.Pos, Name: t.Text, Macro: t.Macro}
}

// checkDeclarator rejects the declarator forms clconv does not have.
func (p *parser) checkDeclarator() {
	if p.tok.Kind == LBRACK {
		p.errorf(p.tok.Pos, "arrays are not supported")
	}
}

// parseDeclRest parses the declarators of a declaration after its type.
func (p *parser) parseDeclRest(pos Pos, isConst bool, tn *TypeName) *DeclStmt {
	d := &DeclStmt{DeclPos: pos, Const: isConst, Type: tn}
	for {
		spec := &VarSpec{Name: p.parseName("variable")}
		if p.tok.Kind == LPAREN {
			p.errorf(p.tok.Pos, "functions can only be declared at top level")
		}
		p.checkDeclarator()
		spec.Mode = p.tok.Mode
		if p.tok.Kind == ASSIGN {
			spec.Assign = p.tok.Pos
			p.next()
			if p.tok.Kind == LBRACE {
				p.errorf(p.tok.Pos, "brace initializers are not supported; write a vector literal such as (%s)(...)", tn.Text)
			}
			spec.Init = p.parseAssign()
		}
		d.Specs = append(d.Specs, spec)
		if p.tok.Kind != COMMA {
			break
		}
		p.next()
	}
	d.Semi = p.tok.Pos
	p.expectSemi("after the declaration")
	return d
}

func (p *parser) parseBlock() *BlockStmt {
	b := &BlockStmt{Lbrace: p.expect(LBRACE, "to open the block")}
	for p.tok.Kind != RBRACE {
		if p.tok.Kind == EOF {
			p.errorf(p.tok.Pos, "expected } to close the block opened at %d:%d, found end of input", b.Lbrace.Line, b.Lbrace.Col)
		}
		b.List = append(b.List, p.parseStmt())
	}
	b.Rbrace = p.tok.Pos
	p.next()
	return b
}

// parseStmt parses a statement or a declaration inside a function or block.
func (p *parser) parseStmt() Stmt {
	p.enter(p.tok.Pos)
	defer p.leave()
	p.chain = 0
	t := p.tok
	switch t.Kind {
	case LBRACE:
		return p.parseBlock()
	case SEMICOLON:
		p.next()
		return &EmptyStmt{Semi: t.Pos}
	case IDENT:
		if what, ok := unsupportedWords[t.Text]; ok {
			p.errorf(t.Pos, "%s: %s not supported", t.Text, isAre(what))
		}
		switch t.Text {
		case "if":
			p.next()
			s := &IfStmt{If: t.Pos, Cond: p.parseCondition("if")}
			s.Then = p.parseStmt()
			if p.tok.Kind == IDENT && p.tok.Text == "else" {
				p.next()
				s.Else = p.parseStmt()
			}
			return s
		case "while":
			p.next()
			s := &WhileStmt{While: t.Pos, Cond: p.parseCondition("while")}
			s.Body = p.parseStmt()
			return s
		case "do":
			p.next()
			s := &DoStmt{Do: t.Pos, Body: p.parseStmt()}
			if p.tok.Kind != IDENT || p.tok.Text != "while" {
				p.errorf(p.tok.Pos, "expected while after the body of do, found %s", describe(p.tok))
			}
			p.next()
			s.Cond = p.parseCondition("do-while")
			p.expectSemi("after do-while")
			return s
		case "for":
			return p.parseFor()
		case "break", "continue":
			p.next()
			p.expectSemi("after " + t.Text)
			return &BranchStmt{TokPos: t.Pos, Tok: t.Text}
		case "return":
			p.next()
			s := &ReturnStmt{Return: t.Pos, Mode: t.Mode}
			if p.tok.Kind != SEMICOLON && !(p.repl && p.tok.Kind == EOF) {
				s.Result = p.parseExpr()
			}
			p.expectSemi("after return")
			return s
		case "else":
			p.errorf(t.Pos, "else without if")
		}
		if startsDecl(t) {
			pos, isConst, tn := p.parseSpecifiers()
			if p.tok.Kind == IDENT && p.peek(1).Kind == LPAREN {
				p.errorf(p.tok.Pos, "functions can only be defined at top level")
			}
			return p.parseDeclRest(pos, isConst, tn)
		}
	}
	// "flaot g = 1.0f;": an identifier followed by another one is a
	// declaration whose type name is misspelt when the first is close to a
	// type name.
	if t.Kind == IDENT && p.peek(1).Kind == IDENT {
		if s := TypeSuggestions(t.Text); len(s) > 0 {
			p.errorf(t.Pos, "unknown type %q%s", t.Text, cltype.DidYouMean("", s))
		}
	}
	x := p.parseExpr()
	semi := p.expectSemi("after the expression")
	return &ExprStmt{X: x, NoSemi: !semi}
}

func isAre(what string) string {
	if strings.HasSuffix(what, "s") {
		return what + " are"
	}
	return what + " is"
}

// parseCondition parses the parenthesized condition of if, while or do.
func (p *parser) parseCondition(what string) Expr {
	p.expect(LPAREN, "after "+what)
	x := p.parseExpr()
	p.expect(RPAREN, "after the condition of "+what)
	return x
}

func (p *parser) parseFor() Stmt {
	s := &ForStmt{For: p.tok.Pos}
	p.next()
	p.expect(LPAREN, "after for")
	switch {
	case p.tok.Kind == SEMICOLON:
		p.next()
	case startsDecl(p.tok):
		pos, isConst, tn := p.parseSpecifiers()
		saved := p.repl
		p.repl = false
		s.Init = p.parseDeclRest(pos, isConst, tn)
		p.repl = saved
	default:
		s.Init = &ExprStmt{X: p.parseExpr()}
		p.expect(SEMICOLON, "after the initialization of for")
	}
	if p.tok.Kind != SEMICOLON {
		s.Cond = p.parseExpr()
	}
	p.expect(SEMICOLON, "after the condition of for")
	if p.tok.Kind != RPAREN {
		s.Post = p.parseExpr()
	}
	p.expect(RPAREN, "to close for (...)")
	s.Body = p.parseStmt()
	return s
}

// parseExpr parses an expression, the comma operator included.
func (p *parser) parseExpr() Expr {
	x := p.parseAssign()
	for p.tok.Kind == COMMA {
		op := p.tok
		p.chained(op.Pos)
		p.next()
		y := p.parseAssign()
		x = &BinaryExpr{X: x, OpPos: op.Pos, Op: COMMA, Y: y, Mode: op.Mode}
	}
	return x
}

func isAssignOp(k TokenKind) bool { return k >= ASSIGN && k <= XOR_ASSIGN }

// parseAssign parses an assignment-expression (assignment is
// right-associative; the checker decides what may be assigned to).
func (p *parser) parseAssign() Expr {
	p.enter(p.tok.Pos)
	defer p.leave()
	x := p.parseCond()
	if isAssignOp(p.tok.Kind) {
		op := p.tok
		p.next()
		y := p.parseAssign()
		return &AssignExpr{X: x, OpPos: op.Pos, Op: op.Kind, Y: y, Mode: op.Mode}
	}
	return x
}

func (p *parser) parseCond() Expr {
	c := p.parseBinary(1)
	if p.tok.Kind != QUESTION {
		return c
	}
	q := p.tok
	p.next()
	x := p.parseExpr()
	colon := p.expect(COLON, "in the conditional expression")
	y := p.parseCondOperand()
	return &CondExpr{Cond: c, Question: q.Pos, X: x, Colon: colon, Y: y, Mode: q.Mode}
}

// parseCondOperand parses the third operand of ?:, a
// conditional-expression in C's grammar (so a ? b : c ? d : e nests to the
// right, and an assignment cannot follow unparenthesized).
func (p *parser) parseCondOperand() Expr {
	p.enter(p.tok.Pos)
	defer p.leave()
	return p.parseCond()
}

// binaryPrec returns the precedence of a binary operator (higher binds
// tighter), or 0 if k is not one.
func binaryPrec(k TokenKind) int {
	switch k {
	case LOR:
		return 1
	case LAND:
		return 2
	case OR:
		return 3
	case XOR:
		return 4
	case AND:
		return 5
	case EQL, NEQ:
		return 6
	case LSS, GTR, LEQ, GEQ:
		return 7
	case SHL, SHR:
		return 8
	case ADD, SUB:
		return 9
	case MUL, QUO, REM:
		return 10
	}
	return 0
}

// parseBinary parses a chain of binary operators of precedence >= minPrec
// (precedence climbing; all of C's binary operators are left-associative).
func (p *parser) parseBinary(minPrec int) Expr {
	p.enter(p.tok.Pos)
	defer p.leave()
	x := p.parseUnary()
	for {
		prec := binaryPrec(p.tok.Kind)
		if prec == 0 || prec < minPrec {
			return x
		}
		op := p.tok
		p.chained(op.Pos)
		p.next()
		y := p.parseBinary(prec + 1)
		x = &BinaryExpr{X: x, OpPos: op.Pos, Op: op.Kind, Y: y, Mode: op.Mode}
	}
}

// parseUnary parses a unary-expression or cast-expression.
func (p *parser) parseUnary() Expr {
	p.enter(p.tok.Pos)
	defer p.leave()
	switch t := p.tok; t.Kind {
	case SUB, ADD, TILDE, NOT:
		p.next()
		x := p.parseUnary()
		return &UnaryExpr{OpPos: t.Pos, Op: t.Kind, X: x, Mode: t.Mode}
	case INC, DEC:
		p.next()
		x := p.parseUnary()
		return &IncDecExpr{X: x, OpPos: t.Pos, Op: t.Kind, Mode: t.Mode}
	case IDENT:
		if t.Text == "sizeof" || t.Text == "vec_step" {
			return p.parseSizeof()
		}
	case LPAREN:
		if next := p.peek(1); next.Kind == IDENT && isTypeWord(next.Text) {
			p.next()
			tn := p.parseTypeName()
			p.expect(RPAREN, "after the type name")
			// (float4)(...) is a vector literal, unless the parenthesis
			// opens another cast, as in (float4)(int4)x.
			if tn.Type.N > 1 && p.tok.Kind == LPAREN {
				if after := p.peek(1); after.Kind != IDENT || !isTypeWord(after.Text) {
					// A vector literal is a postfix-expression: .xy applies to it.
					return p.parsePostfixOf(p.parseVectorLit(t, tn))
				}
			}
			x := p.parseUnary()
			return &CastExpr{Lparen: t.Pos, Type: tn, X: x, Mode: t.Mode}
		}
	}
	return p.parsePostfix()
}

func (p *parser) parseSizeof() Expr {
	t := p.tok
	p.next()
	s := &SizeofExpr{OpPos: t.Pos, Op: t.Text}
	if p.tok.Kind == LPAREN {
		if next := p.peek(1); next.Kind == IDENT && isTypeWord(next.Text) {
			p.next()
			s.Type = p.parseTypeName()
			p.expect(RPAREN, "after the type name")
			return s
		}
	}
	s.X = p.parseUnary()
	return s
}

// parseVectorLit parses the parenthesized element list of (Type)(...).
func (p *parser) parseVectorLit(lparen Token, tn *TypeName) Expr {
	p.expect(LPAREN, "to open the vector literal")
	var elems []Expr
	for {
		elems = append(elems, p.parseAssign())
		if p.tok.Kind != COMMA {
			break
		}
		p.next()
	}
	rparen := p.expect(RPAREN, "to close the vector literal")
	return &VectorLit{Lparen: lparen.Pos, Type: tn, Elems: elems, Rparen: rparen, Mode: lparen.Mode}
}

// parsePostfix parses a primary expression and the calls, selections and
// postfix ++ and -- after it.
func (p *parser) parsePostfix() Expr {
	return p.parsePostfixOf(p.parsePrimary())
}

// parsePostfixOf parses the calls, selections and postfix ++ and -- after x.
func (p *parser) parsePostfixOf(x Expr) Expr {
	for first := true; ; first = false {
		if !first {
			p.chained(p.tok.Pos)
		}
		switch t := p.tok; t.Kind {
		case LPAREN:
			fun, ok := x.(*Ident)
			if !ok {
				p.errorf(t.Pos, "called object is not a function")
			}
			p.next()
			var args []Expr
			if p.tok.Kind != RPAREN {
				for {
					args = append(args, p.parseAssign())
					if p.tok.Kind != COMMA {
						break
					}
					p.next()
				}
			}
			rparen := p.expect(RPAREN, "to close the argument list")
			x = &CallExpr{Fun: fun, Lparen: t.Pos, Args: args, Rparen: rparen, Mode: t.Mode}
		case PERIOD:
			p.next()
			if p.tok.Kind != IDENT && p.tok.Kind != NUMBER {
				p.errorf(p.tok.Pos, "expected a vector component name after '.', found %s", describe(p.tok))
			}
			sel := &Ident{NamePos: p.tok.Pos, Name: p.tok.Text}
			p.next()
			x = &SelectorExpr{X: x, Dot: t.Pos, Sel: sel}
		case INC, DEC:
			p.next()
			x = &IncDecExpr{X: x, OpPos: t.Pos, Op: t.Kind, Postfix: true, Mode: t.Mode}
		case LBRACK:
			p.errorf(t.Pos, "subscripts are not supported (there are no arrays or pointers; select vector elements with .s0 ... .sF)")
		case ARROW:
			p.errorf(t.Pos, "-> is not supported (there are no pointers or structures)")
		default:
			return x
		}
	}
}

func (p *parser) parsePrimary() Expr {
	t := p.tok
	switch t.Kind {
	case IDENT:
		if isTypeWord(t.Text) {
			p.errorf(t.Pos, "unexpected type name %q in an expression (a cast is written (%s)x)", t.Text, t.Text)
		}
		if err := badTypeName(t.Text); err != nil {
			p.errorf(t.Pos, "%v", err)
		}
		if what, ok := unsupportedWords[t.Text]; ok {
			p.errorf(t.Pos, "%s: %s not supported", t.Text, isAre(what))
		}
		if isKeyword(t.Text) {
			p.errorf(t.Pos, "unexpected keyword %q in an expression", t.Text)
		}
		p.next()
		return &Ident{NamePos: t.Pos, Name: t.Text, Macro: t.Macro}
	case NUMBER:
		v, err := value.ParseLiteral(t.Text)
		if err != nil {
			p.errorf(t.Pos, "%v", err)
		}
		p.next()
		return &BasicLit{ValuePos: t.Pos, Text: t.Text, Value: v}
	case CHAR:
		c, err := charValue(t.Text)
		if err != nil {
			p.errorf(t.Pos, "%v", err)
		}
		p.next()
		return &BasicLit{ValuePos: t.Pos, Text: t.Text, Value: value.FromInt64(cltype.Int, int64(c))}
	case STRING:
		p.next()
		return &StringLit{ValuePos: t.Pos, Text: t.Text}
	case LPAREN:
		p.next()
		x := p.parseExpr()
		rparen := p.expect(RPAREN, "to close the parenthesis")
		return &ParenExpr{Lparen: t.Pos, X: x, Rparen: rparen}
	}
	p.errorf(t.Pos, "expected an expression, found %s", describe(t))
	return nil
}

// charValue returns the value of a character constant such as 'a', '\n',
// '\x41' or '\101': an int, of the (signed) char the escape denotes.
func charValue(text string) (int32, error) {
	if len(text) < 3 || text[0] != '\'' || text[len(text)-1] != '\'' {
		return 0, fmt.Errorf("invalid character constant %s", text)
	}
	body := text[1 : len(text)-1]
	var c byte
	switch {
	case body[0] != '\\':
		r, size := utf8.DecodeRuneInString(body)
		if size != len(body) || r >= 0x80 {
			return 0, fmt.Errorf("character constant %s is not a single ASCII character", text)
		}
		c = byte(r)
	case len(body) == 2 && strings.IndexByte(`'"?\abfnrtv`, body[1]) >= 0:
		c = map[byte]byte{'\'': '\'', '"': '"', '?': '?', '\\': '\\', 'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11}[body[1]]
	case body[1] == 'x' && len(body) > 2:
		var v uint64
		for _, d := range []byte(body[2:]) {
			if !isHex(d) {
				return 0, fmt.Errorf("invalid hexadecimal escape in %s", text)
			}
			v = v<<4 | uint64(hexVal(d))
			if v > 0xff {
				return 0, fmt.Errorf("hexadecimal escape in %s is out of range", text)
			}
		}
		c = byte(v)
	case body[1] >= '0' && body[1] <= '7' && len(body) <= 4:
		var v uint64
		for _, d := range []byte(body[1:]) {
			if d < '0' || d > '7' {
				return 0, fmt.Errorf("invalid octal escape in %s", text)
			}
			v = v<<3 | uint64(d-'0')
		}
		if v > 0xff {
			return 0, fmt.Errorf("octal escape in %s is out of range", text)
		}
		c = byte(v)
	default:
		return 0, fmt.Errorf("invalid escape sequence in character constant %s", text)
	}
	return int32(int8(c)), nil // OpenCL C's char is signed
}

func isHex(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

func hexVal(c byte) byte {
	if isDigit(c) {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}
