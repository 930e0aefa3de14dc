//! An answer straight into Python objects, as the CLI's JSON reads back:
//! a serde serializer whose output is what `json.loads` gives for the text
//! serde_json writes, without the text. Maps and structs become dicts,
//! sequences lists, integers ints, strings str, `None` and unit `None`;
//! a 32-bit float becomes the float its shortest decimal form reads as (the
//! digits serde_json writes, not the widened binary value); a float that
//! is not finite `None`, as serde_json writes `null`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::IntoPyObjectExt;
use serde::ser::{self, Serialize};
use std::fmt;

/// A Python error inside serde.
#[derive(Debug)]
pub struct ConvertError(pub PyErr);

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ConvertError {}

impl ser::Error for ConvertError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        ConvertError(PyValueError::new_err(msg.to_string()))
    }
}

impl From<PyErr> for ConvertError {
    fn from(e: PyErr) -> Self {
        ConvertError(e)
    }
}

/// `value` as Python objects (see the module documentation).
pub fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    value.serialize(ToPython { py }).map_err(|e| e.0)
}

thread_local! {
    /// The field names met so far as interned Python strings, by the
    /// address of their `&'static str`: a struct's keys are made once.
    static KEYS: std::cell::RefCell<std::collections::HashMap<(usize, usize), Py<PyString>>> =
        std::cell::RefCell::default();
}

/// `name` as an interned Python string, made once per thread.
fn key<'py>(py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
    KEYS.with(|keys| {
        keys.borrow_mut()
            .entry((name.as_ptr() as usize, name.len()))
            .or_insert_with(|| PyString::intern(py, name).unbind())
            .bind(py)
            .clone()
    })
}

/// The serializer.
#[derive(Clone, Copy)]
pub struct ToPython<'py> {
    py: Python<'py>,
}

type Out<'py> = Result<Bound<'py, PyAny>, ConvertError>;

impl<'py> ToPython<'py> {
    fn any(self, value: impl IntoPyObjectExt<'py>) -> Out<'py> {
        Ok(value.into_bound_py_any(self.py)?)
    }

    fn none(self) -> Out<'py> {
        Ok(self.py.None().into_bound(self.py))
    }

    /// A float as serde_json writes it: finite, or `null`.
    fn float(self, value: f64) -> Out<'py> {
        if value.is_finite() {
            self.any(value)
        } else {
            self.none()
        }
    }

    /// `{variant: value}`, serde_json's form of an enum's data.
    fn tagged(self, variant: &'static str, value: Bound<'py, PyAny>) -> Out<'py> {
        let dict = PyDict::new(self.py);
        dict.set_item(key(self.py, variant), value)?;
        Ok(dict.into_any())
    }
}

impl<'py> ser::Serializer for ToPython<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    type SerializeSeq = Seq<'py>;
    type SerializeTuple = Seq<'py>;
    type SerializeTupleStruct = Seq<'py>;
    type SerializeTupleVariant = Seq<'py>;
    type SerializeMap = Map<'py>;
    type SerializeStruct = Map<'py>;
    type SerializeStructVariant = Map<'py>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        self.any(v)
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        self.any(v)
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        self.any(v)
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        self.any(v)
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        self.any(v)
    }
    fn serialize_i128(self, v: i128) -> Out<'py> {
        self.any(v)
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        self.any(v)
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        self.any(v)
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        self.any(v)
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        self.any(v)
    }
    fn serialize_u128(self, v: u128) -> Out<'py> {
        self.any(v)
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        if !v.is_finite() {
            return self.none();
        }
        // The shortest decimal form that reads back as `v` (what
        // serde_json writes), read as a 64-bit float (what Python reads).
        let mut digits = ryu::Buffer::new();
        let shortest = digits.format_finite(v);
        self.float(shortest.parse::<f64>().map_err(<ConvertError as ser::Error>::custom)?)
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        self.any(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        self.any(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        // serde_json writes bytes as an array of numbers.
        Ok(PyList::new(self.py, v)?.into_any())
    }
    fn serialize_none(self) -> Out<'py> {
        self.none()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Out<'py> {
        self.none()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Out<'py> {
        Ok(key(self.py, variant).into_any())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _name: &'static str, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Out<'py> {
        let inner = value.serialize(self)?;
        self.tagged(variant, inner)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'py>, ConvertError> {
        Ok(Seq { to: self, items: Vec::with_capacity(len.unwrap_or(0)), variant: None })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'py>, ConvertError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Seq<'py>, ConvertError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq<'py>, ConvertError> {
        Ok(Seq { to: self, items: Vec::with_capacity(len), variant: Some(variant) })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'py>, ConvertError> {
        Ok(Map { to: self, dict: PyDict::new(self.py), key: None, variant: None })
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Map<'py>, ConvertError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Map<'py>, ConvertError> {
        Ok(Map { to: self, dict: PyDict::new(self.py), key: None, variant: Some(variant) })
    }
}

/// A list being filled (of a tuple variant: then wrapped in its tag).
pub struct Seq<'py> {
    to: ToPython<'py>,
    items: Vec<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

impl<'py> Seq<'py> {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.items.push(value.serialize(self.to)?);
        Ok(())
    }

    fn finish(self) -> Out<'py> {
        let list = PyList::new(self.to.py, self.items)?.into_any();
        match self.variant {
            Some(variant) => self.to.tagged(variant, list),
            None => Ok(list),
        }
    }
}

impl<'py> ser::SerializeSeq for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTuple for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleVariant for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

/// A map of the one entry `key: null`: serde_json writes its key as it
/// writes every map key.
struct KeyOf<'a, T: ?Sized>(&'a T);

impl<T: ?Sized + Serialize> Serialize for KeyOf<'_, T> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, &())?;
        map.end()
    }
}

/// A dict being filled (of a struct variant: then wrapped in its tag).
pub struct Map<'py> {
    to: ToPython<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

impl<'py> Map<'py> {
    /// A key as serde_json writes it: a string as it is, a number or a
    /// bool as its JSON text; any other key is refused, as serde_json
    /// refuses it.
    fn key<T: ?Sized + Serialize>(&self, key: &T) -> Out<'py> {
        // Strings (every key of gammon's answers, those of flattened
        // structs too) as they are, without serde_json's round trip.
        let made = key.serialize(self.to)?;
        if made.is_instance_of::<PyString>() {
            return Ok(made);
        }
        let text = match serde_json::to_value(KeyOf(key)).map_err(<ConvertError as ser::Error>::custom)? {
            serde_json::Value::Object(map) => map.into_iter().next().map(|(key, _)| key),
            _ => None,
        };
        let text = text.ok_or_else(|| <ConvertError as ser::Error>::custom("a map key serde_json does not write"))?;
        Ok(PyString::new(self.to.py, &text).into_any())
    }

    fn finish(self) -> Out<'py> {
        let dict = self.dict.into_any();
        match self.variant {
            Some(variant) => self.to.tagged(variant, dict),
            None => Ok(dict),
        }
    }
}

impl<'py> ser::SerializeMap for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), ConvertError> {
        self.key = Some(self.key(key)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), ConvertError> {
        let key = self.key.take().ok_or_else(|| <ConvertError as ser::Error>::custom("a map value without its key"))?;
        self.dict.set_item(key, value.serialize(self.to)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, name: &'static str, value: &T) -> Result<(), ConvertError> {
        self.dict.set_item(key(self.to.py, name), value.serialize(self.to)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStructVariant for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ConvertError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, name: &'static str, value: &T) -> Result<(), ConvertError> {
        self.dict.set_item(key(self.to.py, name), value.serialize(self.to)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// `value` through [`to_python`], as Python's `repr`.
    fn repr(value: &impl Serialize) -> String {
        Python::initialize();
        Python::attach(|py| to_python(py, value).map(|v| v.repr().unwrap().to_string()).map_err(|e| e.to_string()))
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn map_keys_are_what_serde_json_writes() {
        let ints = BTreeMap::from([(-3i32, 1u8), (12, 2)]);
        assert_eq!(repr(&ints), "{'-3': 1, '12': 2}");
        assert_eq!(serde_json::to_string(&ints).unwrap(), r#"{"-3":1,"12":2}"#);
        let bools = BTreeMap::from([(false, 0u8), (true, 1)]);
        assert_eq!(repr(&bools), "{'false': 0, 'true': 1}");
        let chars = BTreeMap::from([('x', "a")]);
        assert_eq!(repr(&chars), "{'x': 'a'}");
        // serde_json refuses keys that are not strings, numbers or bools.
        let pairs = BTreeMap::from([((1u8, 2u8), 0u8)]);
        assert!(serde_json::to_string(&pairs).is_err());
        assert!(repr(&pairs).starts_with("error: "), "{}", repr(&pairs));
        let none: BTreeMap<Option<u8>, u8> = BTreeMap::from([(None, 0)]);
        assert!(repr(&none).starts_with("error: "), "{}", repr(&none));
    }
}
