//! JSON text → Lua values, for observations and the `init` info.
//!
//! Objects become tables with string keys, arrays 1-based sequences, `null` becomes `nil` (so
//! a `null` inside an array leaves a hole), integral numbers become Lua integers (when they fit
//! in an `i64`; otherwise floats), other numbers floats.

use mlua::{Lua, Value};
use serde_json::Value as Json;

/// Converts parsed JSON into a Lua value. Nesting is bounded by serde_json's parser (128).
pub(crate) fn to_lua(lua: &Lua, v: &Json) -> mlua::Result<Value> {
    Ok(match v {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => number(n),
        Json::String(s) => Value::String(lua.create_string(s)?),
        Json::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            Value::Table(t)
        }
        Json::Object(fields) => {
            let t = lua.create_table_with_capacity(0, fields.len())?;
            for (k, item) in fields {
                t.raw_set(k.as_str(), to_lua(lua, item)?)?;
            }
            Value::Table(t)
        }
    })
}

fn number(n: &serde_json::Number) -> Value {
    if let Some(i) = n.as_i64() {
        return Value::Integer(i);
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    // Integral floats (e.g. `3.0`, or a u64 above i64::MAX that is exactly representable
    // in i64 after all) become integers when they fit.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0; // 2^63, exact in f64
    if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) {
        Value::Integer(f as i64)
    } else {
        Value::Number(f)
    }
}
