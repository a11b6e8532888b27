//! The parser of the partial-derivative expression language (grammar in the docs of
//! [`crate::expr`]): recursive descent over the bytes of the source.

use std::f64::consts::{LN_10, LN_2, PI};
use std::fmt;

use crate::expr::{b, BinOp, Cmp, Expr, Fun1, Fun2, Var};

/// Parses a whole expression (trailing input is an error).
pub(crate) fn parse(src: &str) -> Result<Expr, ParseError> {
    let mut p = Parser { src, pos: 0 };
    let e = p.expr()?;
    p.skip_ws();
    if p.pos < src.len() {
        return Err(p.err("unexpected trailing input"));
    }
    Ok(e)
}

/// A syntax error in a DSL expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset into the source where the problem was found.
    pub pos: usize,
    /// What went wrong.
    pub message: String,
    /// The complete source text, for the error message.
    pub src: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parse error at byte {} of `{}`: {}",
            self.pos, self.src, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Recursive-descent parser working directly on the bytes of the source.
struct Parser<'a> {
    src: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn err(&self, msg: impl Into<String>) -> ParseError {
        self.err_at(self.pos, msg)
    }

    fn err_at(&self, pos: usize, msg: impl Into<String>) -> ParseError {
        ParseError {
            pos,
            message: msg.into(),
            src: self.src.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Skip whitespace, then consume `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(format!("expected {what}")))
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut lhs = self.term()?;
        loop {
            let op = if self.eat(b'+') {
                BinOp::Add
            } else if self.eat(b'-') {
                BinOp::Sub
            } else {
                return Ok(lhs);
            };
            let rhs = self.term()?;
            lhs = Expr::Bin(op, b(lhs), b(rhs));
        }
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        let mut lhs = self.unary()?;
        loop {
            let op = if self.eat(b'*') {
                BinOp::Mul
            } else if self.eat(b'/') {
                BinOp::Div
            } else {
                return Ok(lhs);
            };
            let rhs = self.unary()?;
            lhs = Expr::Bin(op, b(lhs), b(rhs));
        }
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.eat(b'-') {
            Ok(Expr::Neg(b(self.unary()?)))
        } else {
            self.primary()
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        match self.peek() {
            None => Err(self.err("unexpected end of input, expected an operand")),
            Some(b'(') => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(b')', "`)`")?;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => self.ident_or_call(),
            Some(c) => Err(self.err(format!("unexpected character `{}`", c as char))),
        }
    }

    fn number(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.pos += 1;
            }
            p.pos - s
        };
        let mut n = digits(self);
        if self.peek() == Some(b'.') {
            self.pos += 1;
            n += digits(self);
        }
        if n == 0 {
            return Err(self.err_at(start, "malformed number"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("malformed exponent in number"));
            }
        }
        let text = &self.src[start..self.pos];
        text.parse::<f64>()
            .map(Expr::Const)
            .map_err(|e| self.err_at(start, format!("bad number `{text}`: {e}")))
    }

    fn ident_or_call(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.pos += 1;
        }
        let name = &self.src[start..self.pos];
        self.skip_ws();
        let has_args = self.peek() == Some(b'(');

        // Leaves: variables and named constants.
        let leaf = match name {
            "x" => Some(Expr::Var(Var::Arg(0))),
            "y" => Some(Expr::Var(Var::Arg(1))),
            "z" => Some(Expr::Var(Var::Arg(2))),
            "r" => Some(Expr::Var(Var::Result)),
            "pi" => Some(Expr::Const(PI)),
            "ln2" => Some(Expr::Const(LN_2)),
            "ln10" => Some(Expr::Const(LN_10)),
            _ => name
                .strip_prefix("arg")
                .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
                .and_then(|d| d.parse::<usize>().ok())
                .map(|i| Expr::Var(Var::Arg(i))),
        };
        if let Some(leaf) = leaf {
            if has_args {
                return Err(self.err_at(start, format!("`{name}` is not a function")));
            }
            return Ok(leaf);
        }

        // Calls.
        enum Kind {
            F1(Fun1),
            F2(Fun2),
            C(Cmp),
            Sel,
        }
        let kind = if let Some(f) = Fun1::ALL.into_iter().find(|f| f.name() == name) {
            Kind::F1(f)
        } else if let Some(f) = Fun2::ALL.into_iter().find(|f| f.name() == name) {
            Kind::F2(f)
        } else if let Some(c) = Cmp::ALL.into_iter().find(|c| c.name() == name) {
            Kind::C(c)
        } else if name == "sel" {
            Kind::Sel
        } else {
            return Err(self.err_at(start, format!("unknown identifier `{name}`")));
        };
        let want = match kind {
            Kind::F1(_) => 1,
            Kind::F2(_) | Kind::C(_) => 2,
            Kind::Sel => 3,
        };
        if !has_args {
            return Err(self.err_at(
                start,
                format!("function `{name}` needs {want} argument(s) in parentheses"),
            ));
        }
        self.pos += 1; // '('
        let mut args = Vec::with_capacity(want);
        if !self.eat(b')') {
            loop {
                args.push(self.expr()?);
                if self.eat(b')') {
                    break;
                }
                self.expect(b',', "`,` or `)`")?;
            }
        }
        if args.len() != want {
            return Err(self.err_at(
                start,
                format!(
                    "function `{name}` takes {want} argument(s), got {}",
                    args.len()
                ),
            ));
        }
        let mut it = args.into_iter().map(b);
        let mut next = || it.next().expect("arity checked above");
        Ok(match kind {
            Kind::F1(f) => Expr::Call1(f, next()),
            Kind::F2(f) => Expr::Call2(f, next(), next()),
            Kind::C(c) => Expr::Cmp(c, next(), next()),
            Kind::Sel => Expr::Select(next(), next(), next()),
        })
    }
}
