//! A typed value → [`Tape`], without JSON text in between.
//!
//! The arena hands Lua bots observations it holds as Rust values. Encoding them as JSON and
//! parsing the text back would be a large part of a Lua decision; this serde `Serializer` writes the
//! tape directly and produces exactly the tape that `Tape::parse(serde_json::to_string(v))`
//! produces (the same tokens, strings, numbers and key order), so a bot sees the same tables
//! either way. `tests::typed_and_text_tapes_agree` checks the rules below one by one, and the
//! arena's tests check it on every game's observations.
//!
//! The rules are serde_json's: `None` and unit are `null`, unit variants are their name,
//! newtype and tuple and struct variants are one-entry objects, map keys are strings
//! (integers, booleans and chars as text), non-finite floats are `null`, and a number comes
//! back from text as the parser reads it (integral values as integers, see `json.rs`).

use std::fmt;

use serde::ser::{self, Serialize};

use super::json::{Tape, Tok, NATURAL};

/// Why a value has no JSON form (serde_json would refuse it too).
#[derive(Debug)]
pub(crate) struct SerError(String);

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerError(msg.to_string())
    }
}

type Res = Result<(), SerError>;

impl Tape {
    /// Fills the tape from `value` (replacing what it held).
    pub(crate) fn serialize<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        self.clear();
        value.serialize(TapeSer(self))
    }

    fn push_f64(&mut self, f: f64) {
        // serde_json writes non-finite floats as `null`, and the parser reads integral
        // values back as integers (see `json.rs`, `visit_f64`).
        const TWO_63: f64 = 9_223_372_036_854_775_808.0;
        let tok = if !f.is_finite() {
            Tok::Null
        } else if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) {
            Tok::Int(f as i64)
        } else {
            Tok::Float(f)
        };
        self.toks.push(tok);
    }

    /// Opens a container: its header, to be completed by `close`.
    fn open(&mut self, tok: Tok) -> usize {
        self.toks.push(tok);
        self.toks.len() - 1
    }
}

struct TapeSer<'a>(&'a mut Tape);

/// An open array (sequence, tuple).
struct SeqSer<'a> {
    tape: &'a mut Tape,
    head: usize,
    count: usize,
    /// The enclosing one-entry object of a tuple variant.
    variant: Option<usize>,
}

/// An open object (map, struct).
struct MapSer<'a> {
    tape: &'a mut Tape,
    head: usize,
    /// The enclosing one-entry object of a struct variant.
    variant: Option<usize>,
}

impl<'a> TapeSer<'a> {
    /// `{"variant": …}`: opens the one-entry object and writes its key.
    fn variant(self, name: &str) -> (&'a mut Tape, usize) {
        let outer = self.0.open(Tok::Obj { count: 0, span: 0, order: NATURAL });
        self.0.push_str(name);
        (self.0, outer)
    }
}

impl<'a> ser::Serializer for TapeSer<'a> {
    type Ok = ();
    type Error = SerError;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = SeqSer<'a>;
    type SerializeTupleStruct = SeqSer<'a>;
    type SerializeTupleVariant = SeqSer<'a>;
    type SerializeMap = MapSer<'a>;
    type SerializeStruct = MapSer<'a>;
    type SerializeStructVariant = MapSer<'a>;

    fn serialize_bool(self, v: bool) -> Res {
        self.0.toks.push(Tok::Bool(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Res {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Res {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Res {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Res {
        self.0.toks.push(Tok::Int(v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Res {
        self.0.toks.push(i64::try_from(v).map_or(Tok::Float(v as f64), Tok::Int));
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Res {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Res {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Res {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Res {
        // Above i64::MAX: a float, as the parser's `visit_u64`.
        self.0.toks.push(i64::try_from(v).map_or(Tok::Float(v as f64), Tok::Int));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Res {
        self.0.toks.push(i64::try_from(v).map_or(Tok::Float(v as f64), Tok::Int));
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Res {
        // serde_json writes the shortest decimal form of the f32, which reads back as f64.
        let back = if v.is_finite() { v.to_string().parse::<f64>().unwrap_or(f64::NAN) } else { f64::NAN };
        self.0.push_f64(back);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Res {
        self.0.push_f64(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Res {
        self.0.push_str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Res {
        self.0.push_str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Res {
        let head = self.0.open(Tok::Arr { count: 0, span: 0 });
        for &b in v {
            self.0.toks.push(Tok::Int(i64::from(b)));
        }
        self.0.close_array(head, v.len());
        Ok(())
    }
    fn serialize_none(self) -> Res {
        self.0.toks.push(Tok::Null);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Res {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Res {
        self.0.toks.push(Tok::Null);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Res {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Res {
        self.0.push_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Res {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Res {
        let (tape, outer) = self.variant(variant);
        value.serialize(TapeSer(&mut *tape))?;
        tape.close_object(outer);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<SeqSer<'a>, SerError> {
        let head = self.0.open(Tok::Arr { count: 0, span: 0 });
        Ok(SeqSer { tape: self.0, head, count: 0, variant: None })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'a>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSer<'a>, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<SeqSer<'a>, SerError> {
        let (tape, outer) = self.variant(variant);
        let head = tape.open(Tok::Arr { count: 0, span: 0 });
        Ok(SeqSer { tape, head, count: 0, variant: Some(outer) })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'a>, SerError> {
        let head = self.0.open(Tok::Obj { count: 0, span: 0, order: NATURAL });
        Ok(MapSer { tape: self.0, head, variant: None })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapSer<'a>, SerError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<MapSer<'a>, SerError> {
        let (tape, outer) = self.variant(variant);
        let head = tape.open(Tok::Obj { count: 0, span: 0, order: NATURAL });
        Ok(MapSer { tape, head, variant: Some(outer) })
    }
}

impl SeqSer<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        value.serialize(TapeSer(&mut *self.tape))?;
        self.count += 1;
        Ok(())
    }
    fn finish(self) -> Res {
        self.tape.close_array(self.head, self.count);
        if let Some(outer) = self.variant {
            self.tape.close_object(outer);
        }
        Ok(())
    }
}

impl ser::SerializeSeq for SeqSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        self.element(value)
    }
    fn end(self) -> Res {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        self.element(value)
    }
    fn end(self) -> Res {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        self.element(value)
    }
    fn end(self) -> Res {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for SeqSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        self.element(value)
    }
    fn end(self) -> Res {
        self.finish()
    }
}

impl MapSer<'_> {
    fn finish(self) -> Res {
        self.tape.close_object(self.head);
        if let Some(outer) = self.variant {
            self.tape.close_object(outer);
        }
        Ok(())
    }
}

impl ser::SerializeMap for MapSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Res {
        key.serialize(KeySer(&mut *self.tape))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        value.serialize(TapeSer(&mut *self.tape))
    }
    fn end(self) -> Res {
        self.finish()
    }
}

impl ser::SerializeStruct for MapSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Res {
        self.tape.push_str(key);
        value.serialize(TapeSer(&mut *self.tape))
    }
    fn end(self) -> Res {
        self.finish()
    }
}

impl ser::SerializeStructVariant for MapSer<'_> {
    type Ok = ();
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Res {
        self.tape.push_str(key);
        value.serialize(TapeSer(&mut *self.tape))
    }
    fn end(self) -> Res {
        self.finish()
    }
}

/// A map key: a string, or what serde_json turns into one.
struct KeySer<'a>(&'a mut Tape);

/// A float map key: serde_json's text of the number (finite only, as serde_json).
fn float_key<T: Serialize>(tape: &mut Tape, finite: bool, v: &T) -> Res {
    if !finite {
        return Err(SerError("float key must be finite".into()));
    }
    let text = serde_json::to_string(v).map_err(|e| SerError(e.to_string()))?;
    tape.push_str(&text);
    Ok(())
}

fn key_must_be_a_string() -> SerError {
    SerError("key must be a string".into())
}

impl ser::Serializer for KeySer<'_> {
    type Ok = ();
    type Error = SerError;
    type SerializeSeq = ser::Impossible<(), SerError>;
    type SerializeTuple = ser::Impossible<(), SerError>;
    type SerializeTupleStruct = ser::Impossible<(), SerError>;
    type SerializeTupleVariant = ser::Impossible<(), SerError>;
    type SerializeMap = ser::Impossible<(), SerError>;
    type SerializeStruct = ser::Impossible<(), SerError>;
    type SerializeStructVariant = ser::Impossible<(), SerError>;

    fn serialize_bool(self, v: bool) -> Res {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Res {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Res {
        float_key(self.0, v.is_finite(), &v)
    }
    fn serialize_f64(self, v: f64) -> Res {
        float_key(self.0, v.is_finite(), &v)
    }
    fn serialize_char(self, v: char) -> Res {
        self.0.push_str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Res {
        self.0.push_str(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Res {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Res {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Res {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Res {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Res {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Res {
        self.0.push_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Res {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Res {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, SerError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, SerError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, SerError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, SerError> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, SerError> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::*;

    fn both<T: Serialize>(v: &T) {
        let text = serde_json::to_string(v).unwrap();
        let mut parsed = Tape::default();
        parsed.parse(&text).unwrap();
        let mut typed = Tape::default();
        typed.serialize(v).unwrap();
        assert_eq!(typed.render(), parsed.render(), "{text}");
        assert!(typed.same_as(&parsed), "{text}");
    }

    #[derive(Serialize)]
    enum E {
        Unit,
        New(u8),
        Tup(i32, String),
        Rec { b: bool, a: Option<u64> },
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Tagged {
        Place { seat: usize, card: char },
        Reinit { score: u32 },
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Wrap(Vec<u8>);

    #[derive(Serialize)]
    struct Obs {
        zeta: i64,
        alpha: Vec<E>,
        tagged: Vec<Tagged>,
        floats: [f64; 6],
        small: f32,
        big: u64,
        huge: u128,
        neg: i128,
        none: Option<String>,
        unit: (),
        unit_struct: Unit,
        wrap: Wrap,
        text: String,
        map: BTreeMap<i32, &'static str>,
        bools: BTreeMap<bool, u8>,
        pair: (u8, char),
    }

    /// Every rule of the module's doc, against serde_json text parsed by `Tape::parse`.
    #[test]
    fn typed_and_text_tapes_agree() {
        let obs = Obs {
            zeta: -3,
            alpha: vec![E::Unit, E::New(7), E::Tup(-1, "x\"y\\n\u{e9}".into()), E::Rec { b: true, a: None }],
            tagged: vec![Tagged::Place { seat: 1, card: 'B' }, Tagged::Reinit { score: 12 }],
            floats: [1.5, 3.0, -0.0, f64::NAN, f64::INFINITY, 1e300],
            small: 0.1,
            big: u64::MAX,
            huge: u128::MAX,
            neg: i128::MIN,
            none: None,
            unit: (),
            unit_struct: Unit,
            wrap: Wrap(vec![1, 255]),
            text: "\u{1F0A1} tab\t".into(),
            map: [(10, "ten"), (-2, "minus two")].into_iter().collect(),
            bools: [(true, 1), (false, 0)].into_iter().collect(),
            pair: (9, 'q'),
        };
        both(&obs);
        both(&E::Rec { b: false, a: Some(5) });
        both(&"just a string");
        both(&Vec::<u8>::new());
        both(&Some(2.5f64));
        struct FloatKeys;
        impl Serialize for FloatKeys {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map([(1.5f64, 1u8), (-2.0, 2)])
            }
        }
        both(&FloatKeys);
    }
}
