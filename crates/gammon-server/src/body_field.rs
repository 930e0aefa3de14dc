//! The field at fault in a JSON body that does not read into its request.
//!
//! serde_json's error is text ("unknown field `gamez`, expected …"), and a
//! field name cut out of it is a guess (a value can hold backquotes too).
//! So the body is read a second time, key by key, into the same request type
//! through serde's typed errors: an unknown, missing or repeated field names
//! itself (`unknown_field`, `missing_field`, `duplicate_field`), and a value
//! that does not read is named by the key it came under. Only refused bodies
//! are read twice.

use serde::de::{self, DeserializeOwned, IntoDeserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// The top-level field of the JSON object `bytes` that keeps it from
/// reading into `T`; `None` when the body is no JSON object or the fault is
/// not one field's.
pub fn field_at_fault<T: DeserializeOwned>(bytes: &[u8]) -> Option<String> {
    let Entries(entries) = serde_json::from_slice(bytes).ok()?;
    let fields = entries.into_iter().map(|(key, value)| (key.clone(), Keyed { key, value }));
    T::deserialize(de::value::MapDeserializer::new(fields)).err()?.0
}

/// A JSON object's entries in their order, a repeated key kept (serde's
/// own map would keep only its last value).
struct Entries(Vec<(String, Value)>);

impl<'de> de::Deserialize<'de> for Entries {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// Why a body did not read: the field at fault, if one is.
#[derive(Debug)]
struct FieldError(Option<String>);

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(field) => write!(f, "field {field}"),
            None => f.write_str("the body as a whole"),
        }
    }
}

impl std::error::Error for FieldError {}

impl de::Error for FieldError {
    fn custom<T: fmt::Display>(_: T) -> Self {
        FieldError(None)
    }
    fn unknown_field(field: &str, _expected: &'static [&'static str]) -> Self {
        FieldError(Some(field.to_string()))
    }
    fn missing_field(field: &'static str) -> Self {
        FieldError(Some(field.to_string()))
    }
    fn duplicate_field(field: &'static str) -> Self {
        FieldError(Some(field.to_string()))
    }
}

/// A value with the key it came under, which any error in it names.
struct Keyed {
    key: String,
    value: Value,
}

impl IntoDeserializer<'_, FieldError> for Keyed {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

/// Each method is serde_json's for the value, its error replaced by the key.
macro_rules! keyed {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, FieldError> {
            let Keyed { key, value } = self;
            de::Deserializer::$method(value, $($arg,)* visitor).map_err(|_| FieldError(Some(key)))
        })*
    };
}

impl<'de> de::Deserializer<'de> for Keyed {
    type Error = FieldError;

    keyed! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
        deserialize_i64(); deserialize_i128(); deserialize_u8(); deserialize_u16(); deserialize_u32();
        deserialize_u64(); deserialize_u128(); deserialize_f32(); deserialize_f64(); deserialize_char();
        deserialize_str(); deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit(); deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str); deserialize_seq(); deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize); deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier(); deserialize_ignored_any();
    }
}

#[cfg(test)]
mod tests {
    use super::field_at_fault;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Request {
        position: String,
        #[serde(default)]
        games: u64,
        dice: Option<String>,
        #[serde(rename = "match")]
        match_text: Option<String>,
    }

    fn field(body: &str) -> Option<String> {
        field_at_fault::<Request>(body.as_bytes())
    }

    #[test]
    fn the_field_at_fault_is_named_by_serde_s_typed_errors() {
        assert_eq!(field(r#"{"position": "start", "gamez": 10}"#).as_deref(), Some("gamez"));
        assert_eq!(field(r#"{"games": 10}"#).as_deref(), Some("position"));
        assert_eq!(field(r#"{"position": "start", "games": 1, "games": 2}"#).as_deref(), Some("games"));
        assert_eq!(field(r#"{"position": "start", "games": -1}"#).as_deref(), Some("games"));
        assert_eq!(field(r#"{"position": 5}"#).as_deref(), Some("position"));
        assert_eq!(field(r#"{"position": "start", "match": [1]}"#).as_deref(), Some("match"));
        // The first fault in the body's order, as serde_json reports it.
        assert_eq!(field(r#"{"games": "x", "gamez": 1}"#).as_deref(), Some("games"));
        assert_eq!(field(r#"{"gamez": 1, "games": "x"}"#).as_deref(), Some("gamez"));
    }

    #[test]
    fn a_value_that_quotes_a_field_name_does_not_name_it() {
        // serde_json's text says: invalid type: string "the `dice` field",
        // expected u64.
        assert_eq!(field(r#"{"position": "start", "games": "the `dice` field"}"#).as_deref(), Some("games"));
    }

    #[test]
    fn a_body_that_is_not_a_json_object_names_no_field() {
        for body in ["{", "[]", "5", r#"{"position": "start", "games": 1x}"#, ""] {
            assert_eq!(field(body), None, "{body}");
        }
        assert_eq!(field(r#"{"position": "start"}"#), None, "it reads");
    }
}
