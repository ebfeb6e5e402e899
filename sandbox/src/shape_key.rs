//! The key of a Lua program's random stream ([`Program::random_key`](crate::Program::random_key)):
//! a digest of its tokens with comments dropped, every name (variable, function, field) made
//! the same, and the tokens sorted. A copy of a program with other comments, other names or its
//! functions in another order has the same key, so it draws the same `math.random` numbers and
//! replies alike; programs written apart almost never share it (docs/sandbox.md).

use sha2::{Digest, Sha256};

/// Lua 5.4's reserved words (kept as they are; every other name reads as one token).
const KEYWORDS: [&[u8]; 22] = [
    b"and",
    b"break",
    b"do",
    b"else",
    b"elseif",
    b"end",
    b"false",
    b"for",
    b"function",
    b"goto",
    b"if",
    b"in",
    b"local",
    b"nil",
    b"not",
    b"or",
    b"repeat",
    b"return",
    b"then",
    b"true",
    b"until",
    b"while",
];

/// Operators of more than one character, longest first.
const OPERATORS: [&[u8]; 10] = [b"...", b"..", b"==", b"~=", b"<=", b">=", b"<<", b">>", b"//", b"::"];

/// The level of a long bracket opening at `s[0]` (`[[` is 0, `[==[` is 2), if one does.
fn long_bracket(s: &[u8]) -> Option<usize> {
    if s.first() != Some(&b'[') {
        return None;
    }
    let level = s[1..].iter().take_while(|&&c| c == b'=').count();
    (s.get(1 + level) == Some(&b'[')).then_some(level)
}

/// The length of the long bracket (string or comment body) opening at `s[0]` at `level`,
/// through its closing bracket (or the end of the text).
fn long_len(s: &[u8], level: usize) -> usize {
    let close: Vec<u8> =
        std::iter::once(b']').chain(std::iter::repeat_n(b'=', level)).chain([b']']).collect();
    let body = level + 2;
    s[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(s.len(), |p| body + p + close.len())
}

/// The tokens of a Lua source, names replaced by `N`, comments and spaces dropped. It does not
/// need to be valid Lua: whatever it cannot read is one byte per token.
pub(crate) fn tokens(src: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let s = &src[i..];
        let c = s[0];
        let len = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if s.starts_with(b"--") {
            i += match long_bracket(&s[2..]) {
                Some(level) => 2 + long_len(&s[2..], level),
                None => s.iter().position(|&c| c == b'\n').unwrap_or(s.len()),
            };
            continue;
        } else if let Some(level) = long_bracket(s) {
            long_len(s, level)
        } else if c == b'"' || c == b'\'' {
            let mut j = 1;
            while j < s.len() && s[j] != c && s[j] != b'\n' {
                j += if s[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(s.len())
        } else if c.is_ascii_digit() || (c == b'.' && s.get(1).is_some_and(u8::is_ascii_digit)) {
            let mut j = 1;
            while j < s.len() {
                let d = s[j];
                let exponent_sign = (d == b'+' || d == b'-') && matches!(s[j - 1], b'e' | b'E' | b'p' | b'P');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exponent_sign {
                    j += 1;
                } else {
                    break;
                }
            }
            j
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let n = s.iter().take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_').count();
            if !KEYWORDS.contains(&&s[..n]) {
                out.push(&b"N"[..]);
                i += n;
                continue;
            }
            n
        } else {
            OPERATORS.iter().find(|op| s.starts_with(op)).map_or(1, |op| op.len())
        };
        out.push(&s[..len]);
        i += len;
    }
    out
}

/// The random-stream key of a Lua source: the first 8 bytes of the SHA-256 of its sorted
/// [`tokens`].
pub(crate) fn lua_key(src: &[u8]) -> u64 {
    let mut tokens = tokens(src);
    tokens.sort_unstable();
    let mut h = Sha256::new();
    for t in tokens {
        h.update((t.len() as u64).to_le_bytes());
        h.update(t);
    }
    u64::from_le_bytes(h.finalize()[..8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_comments_and_order_do_not_change_the_key_anything_else_does() {
        let a = b"-- mine\nlocal function pick(list) return list[math.random(#list)] end\n\
                  local function count(t) return #t end\n\
                  function act(obs) return pick(obs.legal) end\n";
        let b = b"--[==[ a long\ncomment ]==]\nfunction act(o) return choose(o.legal) end\n\
                  local function size(x) return #x end\n\
                  local function choose(l) return l[math.random(#l)] end -- the same, really\n";
        assert_eq!(lua_key(a), lua_key(b));
        let other = b"function act(obs) return obs.legal[math.random(#obs.legal)] end";
        assert_ne!(lua_key(a), lua_key(other));
        // a constant, a string or an operator is part of the program
        assert_ne!(lua_key(b"x = 1"), lua_key(b"x = 2"));
        assert_ne!(lua_key(b"x = 'a b'"), lua_key(b"x = 'a  b'"));
        assert_ne!(lua_key(b"x = a .. b"), lua_key(b"x = a + b"));
    }

    #[test]
    fn strings_numbers_and_comments_are_read_whole() {
        let t = tokens(b"s = \"a -- \\\" b\" .. [=[x]]y]=] --[[c\n]] n = 0x1p-3 + 1e+2 ... ;");
        let t: Vec<String> = t.iter().map(|t| String::from_utf8_lossy(t).into_owned()).collect();
        assert_eq!(
            t,
            ["N", "=", "\"a -- \\\" b\"", "..", "[=[x]]y]=]", "N", "=", "0x1p-3", "+", "1e+2", "...", ";"]
        );
        // unfinished text ends at the end, without a panic
        for s in [&b"\"abc"[..], b"[[abc", b"--[[abc", b"'\\", b"[=", b"\xff\xfe"] {
            let _ = lua_key(s);
        }
    }
}
