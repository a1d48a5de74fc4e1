//! Canonical JSON for the log's hashes, written straight from the types.
//!
//! An entry's hash covers its JSON with every object's keys sorted ([`super::log::entry_hash`]).
//! That used to be made by building a `serde_json::Value` tree (its maps are sorted) and writing it:
//! an allocation per string and per object, for every entry, on every load. This serializer writes
//! the same bytes directly: leaves (strings, integers, booleans) are written by `serde_json` itself,
//! so escaping and number formatting are identical, and each object's members are written in
//! key order after its values have been written once into the same buffer.
//!
//! Anything whose `Value` form is not simply its JSON (32-bit floats, 128-bit integers, map keys
//! that are not strings, integers or unit variants) is refused with [`Unsupported`], and the caller falls
//! back to the `Value` road, so a hash can never change because of this module. Debug builds check
//! every hash both ways ([`super::log::entry_hash`]).

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible, Serializer};

/// Something the fast road does not write; take the `Value` road instead.
#[derive(Debug)]
pub(crate) struct Unsupported(String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

fn unsupported(what: &str) -> Unsupported {
    Unsupported(format!("{what} is left to the Value road"))
}

/// Appends the canonical JSON of `value` to `out`, leaving out the top-level member `drop_key`
/// (the entry's own `hash`). On `Err`, `out` holds partial output and must be discarded.
pub(crate) fn write_canonical<T: Serialize + ?Sized>(
    value: &T,
    drop_key: Option<&'static str>,
    out: &mut Vec<u8>,
) -> Result<(), Unsupported> {
    value.serialize(Canon { out, drop_key })
}

/// A leaf written by serde_json itself (the exact bytes `Value` would write).
fn leaf<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) -> Result<(), Unsupported> {
    serde_json::to_writer(&mut *out, v).map_err(|e| Unsupported(e.to_string()))
}

struct Canon<'a> {
    out: &'a mut Vec<u8>,
    drop_key: Option<&'static str>,
}

/// One object member: its key and the byte range of its value.
type Member = (Cow<'static, str>, usize, usize);

/// Buffers handed back by finished objects, for the next ones on this thread: an entry has a
/// dozen objects, a load hashes ten thousand entries.
#[derive(Default)]
struct Pool {
    members: Vec<Vec<Member>>,
    bytes: Vec<Vec<u8>>,
}

thread_local! {
    static POOL: std::cell::RefCell<Pool> = std::cell::RefCell::new(Pool::default());
}

fn pooled_members() -> Vec<Member> {
    POOL.with(|p| p.borrow_mut().members.pop())
        .unwrap_or_default()
}

fn pooled_bytes() -> Vec<u8> {
    POOL.with(|p| p.borrow_mut().bytes.pop())
        .unwrap_or_default()
}

fn give_back(mut members: Vec<Member>, mut bytes: Vec<u8>) {
    members.clear();
    bytes.clear();
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        // Nesting is shallow; keep a few of each.
        if p.members.len() < 32 {
            p.members.push(members);
        }
        if p.bytes.len() < 32 {
            p.bytes.push(bytes);
        }
    });
}

impl<'a> Canon<'a> {
    fn object(self) -> Object<'a> {
        let start = self.out.len();
        Object {
            out: self.out,
            drop_key: self.drop_key,
            start,
            members: pooled_members(),
            key: None,
            variant: false,
        }
    }
}

impl<'a> Serializer for Canon<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Array<'a>;
    type SerializeTuple = Array<'a>;
    type SerializeTupleStruct = Array<'a>;
    type SerializeTupleVariant = Array<'a>;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Object<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_i128(self, _: i128) -> Result<(), Unsupported> {
        Err(unsupported("a 128-bit integer"))
    }
    fn serialize_u128(self, _: u128) -> Result<(), Unsupported> {
        Err(unsupported("a 128-bit integer"))
    }
    fn serialize_f32(self, _: f32) -> Result<(), Unsupported> {
        Err(unsupported("a 32-bit float"))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        // `Value` keeps an f64 as it is (a NaN or an infinity as null) and serde_json writes it
        // with the same formatter either way. An f32 is widened by `Value`, so it is refused.
        leaf(self.out, &v)
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        leaf(self.out, &v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        leaf(self.out, v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        // `Value` makes an array of numbers, which is what serde_json writes for bytes too.
        leaf(self.out, &v)
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Unsupported> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        leaf(self.out, variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Unsupported> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Unsupported> {
        // One member: already in order.
        self.out.push(b'{');
        leaf(self.out, variant)?;
        self.out.push(b':');
        v.serialize(Canon {
            out: self.out,
            drop_key: None,
        })?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Array<'a>, Unsupported> {
        self.out.push(b'[');
        Ok(Array {
            out: self.out,
            first: true,
            close: b"]",
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Array<'a>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Array<'a>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Array<'a>, Unsupported> {
        self.out.push(b'{');
        leaf(self.out, variant)?;
        self.out.extend_from_slice(b":[");
        Ok(Array {
            out: self.out,
            first: true,
            close: b"]}",
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Object<'a>, Unsupported> {
        Ok(self.object())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Object<'a>, Unsupported> {
        Ok(self.object())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Object<'a>, Unsupported> {
        // `{"variant": {...}}`: the outer object has one member, written now; the inner one is
        // collected after it and closed with an extra brace.
        self.out.push(b'{');
        leaf(self.out, variant)?;
        self.out.push(b':');
        let mut inner = Canon {
            out: self.out,
            drop_key: None,
        }
        .object();
        inner.variant = true;
        Ok(inner)
    }
}

/// An array being written: elements go straight to the output.
pub(crate) struct Array<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    close: &'static [u8],
}

impl Array<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        v.serialize(Canon {
            out: self.out,
            drop_key: None,
        })
    }

    fn close(self) -> Result<(), Unsupported> {
        self.out.extend_from_slice(self.close);
        Ok(())
    }
}

/// The four array-like serde traits differ only in their method names.
macro_rules! array_impl {
    ($($trait:ident :: $method:ident),+) => {$(
        impl ser::$trait for Array<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
                self.element(v)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        }
    )+};
}

array_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// An object being written: each member's value is written once at the end of the output and
/// remembered by its byte range; `close` puts the members in key order.
pub(crate) struct Object<'a> {
    out: &'a mut Vec<u8>,
    drop_key: Option<&'static str>,
    /// Where this object's bytes begin.
    start: usize,
    /// (key, value bytes start, end), in the order given.
    members: Vec<Member>,
    /// A key waiting for its value (maps).
    key: Option<Cow<'static, str>>,
    /// A struct variant's fields: one more brace closes the `{"variant": ...}` around them.
    variant: bool,
}

impl Object<'_> {
    fn member<T: Serialize + ?Sized>(
        &mut self,
        key: Cow<'static, str>,
        v: &T,
    ) -> Result<(), Unsupported> {
        let from = self.out.len();
        v.serialize(Canon {
            out: self.out,
            drop_key: None,
        })?;
        self.members.push((key, from, self.out.len()));
        Ok(())
    }

    fn close(mut self) -> Result<(), Unsupported> {
        let mut values = pooled_bytes();
        values.extend_from_slice(self.out.get(self.start..).unwrap_or_default());
        self.out.truncate(self.start);
        // Sorted by key as `Value`'s BTreeMap sorts them (a stable sort: of equal keys, the
        // last written wins below).
        self.members.sort_by(|a, b| a.0.cmp(&b.0));
        self.out.push(b'{');
        let mut first = true;
        let mut result = Ok(());
        for (i, (key, from, to)) in self.members.iter().enumerate() {
            let superseded = self.members.get(i + 1).is_some_and(|next| next.0 == *key);
            if superseded || self.drop_key == Some(key.as_ref()) {
                continue;
            }
            if !first {
                self.out.push(b',');
            }
            first = false;
            if let Err(e) = leaf(self.out, key.as_ref()) {
                result = Err(e);
                break;
            }
            self.out.push(b':');
            match values.get(from - self.start..to - self.start) {
                Some(bytes) => self.out.extend_from_slice(bytes),
                None => {
                    result = Err(unsupported("a member out of its object"));
                    break;
                }
            }
        }
        self.out.push(b'}');
        if self.variant {
            self.out.push(b'}');
        }
        give_back(std::mem::take(&mut self.members), values);
        result
    }
}

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.key = Some(Cow::Owned(key.serialize(KeyString)?));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
        let key = self
            .key
            .take()
            .ok_or_else(|| unsupported("a value without a key"))?;
        self.member(key, v)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

/// Struct fields and struct-variant fields are both members with static keys.
macro_rules! struct_impl {
    ($($trait:ident),+) => {$(
        impl ser::$trait for Object<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Unsupported> {
                self.member(Cow::Borrowed(key), v)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        }
    )+};
}

struct_impl!(SerializeStruct, SerializeStructVariant);

/// A map key as `Value` makes it: strings, integers (in decimal) and unit variants; anything else
/// takes the `Value` road.
struct KeyString;

impl Serializer for KeyString {
    type Ok = String;
    type Error = Unsupported;
    type SerializeSeq = Impossible<String, Unsupported>;
    type SerializeTuple = Impossible<String, Unsupported>;
    type SerializeTupleStruct = Impossible<String, Unsupported>;
    type SerializeTupleVariant = Impossible<String, Unsupported>;
    type SerializeMap = Impossible<String, Unsupported>;
    type SerializeStruct = Impossible<String, Unsupported>;
    type SerializeStructVariant = Impossible<String, Unsupported>;

    fn serialize_str(self, v: &str) -> Result<String, Unsupported> {
        Ok(v.to_owned())
    }
    fn serialize_char(self, v: char) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Unsupported> {
        Ok(v.to_string())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Unsupported> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<String, Unsupported> {
        v.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<String, Unsupported> {
        Err(unsupported("a boolean key"))
    }
    fn serialize_i128(self, _: i128) -> Result<String, Unsupported> {
        Err(unsupported("a 128-bit key"))
    }
    fn serialize_u128(self, _: u128) -> Result<String, Unsupported> {
        Err(unsupported("a 128-bit key"))
    }
    fn serialize_f32(self, _: f32) -> Result<String, Unsupported> {
        Err(unsupported("a float key"))
    }
    fn serialize_f64(self, _: f64) -> Result<String, Unsupported> {
        Err(unsupported("a float key"))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, Unsupported> {
        Err(unsupported("a bytes key"))
    }
    fn serialize_none(self) -> Result<String, Unsupported> {
        Err(unsupported("a null key"))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Unsupported> {
        Err(unsupported("an optional key"))
    }
    fn serialize_unit(self) -> Result<String, Unsupported> {
        Err(unsupported("a unit key"))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Unsupported> {
        Err(unsupported("a unit key"))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Unsupported> {
        Err(unsupported("a variant key"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unsupported> {
        Err(unsupported("an array key"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(unsupported("a tuple key"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(unsupported("a tuple key"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(unsupported("a variant key"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(unsupported("a map key"))
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Unsupported> {
        Err(unsupported("a struct key"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(unsupported("a variant key"))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde::Serialize;

    use super::*;

    /// The bytes the `Value` road writes.
    fn via_value<T: Serialize>(v: &T) -> Vec<u8> {
        let v = serde_json::to_value(v).unwrap_or(serde_json::Value::Null);
        serde_json::to_vec(&v).unwrap_or_default()
    }

    fn canon<T: Serialize>(v: &T) -> Result<Vec<u8>, Unsupported> {
        let mut out = Vec::new();
        write_canonical(v, None, &mut out).map(|_| out)
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "kebab-case")]
    enum Tagged {
        Plain,
        Move { unit: String, to: Option<(u8, u8)> },
    }

    #[derive(Serialize)]
    enum External {
        Unit,
        New(u32),
        Tuple(u8, String),
        Struct { zeta: bool, alpha: Vec<u8> },
    }

    #[derive(Serialize)]
    struct Inner {
        zulu: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<String>,
        alpha: char,
    }

    #[derive(Serialize)]
    struct Outer {
        zebra: &'static str,
        #[serde(flatten)]
        kind: Tagged,
        escaped: String,
        nested: Vec<Inner>,
        map: BTreeMap<u32, External>,
        hashed: HashMap<String, i64>,
        value: serde_json::Value,
        unit: (),
        bytes: serde_bytes_like::Bytes,
        newtype: Wrapper,
        negative: i64,
        big: u64,
        floats: Vec<f64>,
    }

    #[derive(Serialize)]
    struct Wrapper(Vec<Option<bool>>);

    mod serde_bytes_like {
        /// Serialized with `serialize_bytes`.
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    fn sample(kind: Tagged) -> Outer {
        let mut map = BTreeMap::new();
        map.insert(10, External::Unit);
        map.insert(2, External::New(7));
        map.insert(33, External::Tuple(1, "t".into()));
        map.insert(
            4,
            External::Struct {
                zeta: true,
                alpha: vec![3, 1],
            },
        );
        let hashed = (0..20).map(|i| (format!("k{i}"), i - 10)).collect();
        Outer {
            zebra: "z",
            kind,
            escaped: "quote \" back \\ tab \t newline \n nul \u{0} bell \u{7} é 中 /".into(),
            nested: vec![
                Inner {
                    zulu: 1,
                    maybe: None,
                    alpha: 'a',
                },
                Inner {
                    zulu: 2,
                    maybe: Some("yes".into()),
                    alpha: '"',
                },
            ],
            map,
            hashed,
            value: serde_json::json!({"b": [1, {"z": null, "a": "x"}], "a": -3, "c": true}),
            unit: (),
            bytes: serde_bytes_like::Bytes(vec![0, 255, 10]),
            newtype: Wrapper(vec![Some(true), None, Some(false)]),
            negative: i64::MIN,
            big: u64::MAX,
            floats: vec![0.1, -2.5e-300, 1e21, 3.0, f64::NAN, f64::INFINITY],
        }
    }

    #[test]
    fn writes_what_the_value_road_writes() {
        for kind in [
            Tagged::Plain,
            Tagged::Move {
                unit: "u1".into(),
                to: Some((3, 4)),
            },
        ] {
            let s = sample(kind);
            let fast = canon(&s).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&via_value(&s))
            );
        }
    }

    #[test]
    fn refuses_what_value_writes_differently() {
        assert!(canon(&vec![0.1f32]).is_err());
        assert!(canon(&(1u128 << 70)).is_err());
        let mut bool_keys = BTreeMap::new();
        bool_keys.insert(true, 1);
        assert!(canon(&bool_keys).is_err());
    }

    #[test]
    fn drops_only_the_top_level_key() {
        let v = serde_json::json!({"hash": "h", "prev": "p", "inner": {"hash": "kept"}});
        let mut out = Vec::new();
        write_canonical(&v, Some("hash"), &mut out).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out),
            r#"{"inner":{"hash":"kept"},"prev":"p"}"#
        );
    }
}
