//! Python type hints of an observation: `TypedDict` classes generated from the JSON Schema, for
//! editors and type checkers (`arena schema --game G --python`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{description, enum_values, observation_schema, pascal};

/// The `TypedDict` stubs of game `game`'s observation (a Python file for editors; the arena
/// itself never imports it).
pub fn python_stubs(game: crate::play::GameId) -> String {
    let schema = observation_schema(game);
    let game = game.name();
    let prefix = pascal(game);
    let mut w = PyWriter { prefix: prefix.clone(), defs: Map::new() };
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        w.defs = defs.clone();
    }
    let mut out = format!(
        "# cardarena: the {game} observation as Python type hints, for editors and type checkers.\n\
         # Generated from the arena's Rust types (`arena schema --game {game} --python`); do not edit.\n\
         # Keep it beside your bot and annotate `def act(obs: \"{prefix}Observation\") -> str:`; the\n\
         # arena never imports it (a bot may only import the modules docs/python.md lists).\n\
         # Lists are indexed by seat where a field says \"per seat\". JSON null is None.\n\
         from __future__ import annotations\n\n\
         from typing import List, Dict, Literal, NotRequired, Optional, TypedDict, Union\n"
    );
    let root_name = schema.get("title").and_then(Value::as_str).unwrap_or("Observation");
    let mut blocks: BTreeMap<String, String> = BTreeMap::new();
    for (name, def) in &w.defs {
        let class = w.class_name(name);
        blocks.insert(class.clone(), w.definition(&class, def));
    }
    out.push('\n');
    out.push_str(&w.definition(&w.class_name(root_name), &schema));
    for block in blocks.values() {
        out.push_str("\n\n");
        out.push_str(block);
    }
    out
}

/// Python's keywords: not usable as a field name in the class syntax.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
    "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

struct PyWriter {
    prefix: String,
    defs: Map<String, Value>,
}

fn comment(text: &str, indent: &str) -> String {
    text.lines().map(|l| format!("{indent}# {l}\n")).collect()
}

fn py_literal(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Null => "None".into(),
        other => other.to_string(),
    }
}

impl PyWriter {
    fn class_name(&self, name: &str) -> String {
        if name.starts_with(&self.prefix) {
            name.to_string()
        } else {
            format!("{}{}", self.prefix, name.replace('_', ""))
        }
    }

    /// The Python text of one named type: a `TypedDict`, or an alias.
    fn definition(&self, name: &str, schema: &Value) -> String {
        let mut out = description(schema).map(|d| comment(&d, "")).unwrap_or_default();
        if let Some(values) = enum_values(schema) {
            for (v, d) in &values {
                if let Some(d) = d {
                    out.push_str(&format!("#   {}: {d}\n", py_literal(v)));
                }
            }
            let literals: Vec<String> = values.iter().map(|(v, _)| py_literal(v)).collect();
            out.push_str(&format!("{name} = Literal[{}]\n", literals.join(", ")));
            return out;
        }
        if let Some(variants) = schema.get("oneOf").and_then(Value::as_array) {
            if variants.iter().all(|v| v.get("properties").is_some()) {
                let mut names = Vec::new();
                let mut classes = String::new();
                for (i, v) in variants.iter().enumerate() {
                    let kind =
                        tag_value(v).map(|k| pascal(&k.replace('_', "-"))).unwrap_or_else(|| i.to_string());
                    let class = format!("{name}{kind}");
                    classes.push_str(&self.typed_dict(&class, v));
                    classes.push_str("\n\n");
                    names.push(format!("{class:?}"));
                }
                return format!("{classes}{out}{name} = Union[{}]\n", names.join(", "));
            }
        }
        if schema.get("properties").is_some() {
            return out + &self.typed_dict(name, schema);
        }
        out.push_str(&format!("{name} = {}\n", self.type_of(schema, true)));
        out
    }

    /// A `TypedDict`: the class syntax, or the functional one when a field is a Python keyword
    /// (Blade's `from`). Fields that may be absent are `NotRequired`; the arena writes every
    /// nullable field (as null), so those are plain `Optional`.
    fn typed_dict(&self, name: &str, schema: &Value) -> String {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let props = schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        let functional = props.keys().any(|k| KEYWORDS.contains(&k.as_str()));
        let mut fields = Vec::new();
        for (field, s) in &props {
            let mut ty = self.type_of(s, functional);
            if !required.contains(&field.as_str()) && !ty.starts_with("Optional[") {
                ty = format!("NotRequired[{ty}]");
            }
            fields.push((field, description(s), ty));
        }
        let mut out = String::new();
        if functional {
            if let Some(d) = description(schema) {
                out.push_str(&comment(&d, ""));
            }
            out.push_str(&format!("{name} = TypedDict(\n    {name:?},\n    {{\n"));
            for (field, d, ty) in fields {
                if let Some(d) = d {
                    out.push_str(&comment(&d, "        "));
                }
                out.push_str(&format!("        {field:?}: {ty},\n"));
            }
            out.push_str("    },\n)\n");
            return out;
        }
        out.push_str(&format!("class {name}(TypedDict):\n"));
        if let Some(d) = description(schema) {
            out.push_str(&format!("    {d:?}\n"));
        }
        for (field, d, ty) in &fields {
            if let Some(d) = d {
                out.push_str(&comment(d, "    "));
            }
            out.push_str(&format!("    {field}: {ty}\n"));
        }
        if fields.is_empty() {
            out.push_str("    pass\n");
        }
        out
    }

    /// The Python type of a schema; `quote` writes class names as strings (in an alias, which
    /// Python evaluates).
    fn type_of(&self, s: &Value, quote: bool) -> String {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = self.class_name(r.rsplit('/').next().unwrap_or(r));
            return if quote { format!("{name:?}") } else { name };
        }
        if let Some(c) = s.get("const") {
            return format!("Literal[{}]", py_literal(c));
        }
        if let Some(alts) = s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array) {
            let nullable = alts.iter().any(|a| a.get("type").and_then(Value::as_str) == Some("null"));
            let types: Vec<String> = alts
                .iter()
                .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                .map(|a| self.type_of(a, quote))
                .collect();
            let t = if types.len() == 1 { types[0].clone() } else { format!("Union[{}]", types.join(", ")) };
            return if nullable { format!("Optional[{t}]") } else { t };
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            return format!("Literal[{}]", values.iter().map(py_literal).collect::<Vec<_>>().join(", "));
        }
        match s.get("type") {
            Some(Value::Array(types)) => {
                let nullable = types.iter().any(|t| t == "null");
                let rest: Vec<String> = types
                    .iter()
                    .filter(|t| *t != "null")
                    .map(|t| {
                        let mut single = s.clone();
                        single["type"] = t.clone();
                        self.type_of(&single, quote)
                    })
                    .collect();
                let t = if rest.len() == 1 { rest[0].clone() } else { format!("Union[{}]", rest.join(", ")) };
                if nullable {
                    format!("Optional[{t}]")
                } else {
                    t
                }
            }
            Some(Value::String(t)) => match t.as_str() {
                "integer" => "int".into(),
                "number" => "float".into(),
                "boolean" => "bool".into(),
                "string" => "str".into(),
                "null" => "None".into(),
                "array" => {
                    let item =
                        s.get("items").map(|i| self.type_of(i, quote)).unwrap_or_else(|| "object".into());
                    format!("List[{item}]")
                }
                "object" => {
                    let key = s
                        .get("propertyNames")
                        .map(|k| self.type_of(k, quote))
                        .unwrap_or_else(|| "str".into());
                    let value = match s.get("additionalProperties") {
                        Some(v @ Value::Object(_)) => self.type_of(v, quote),
                        _ => "object".into(),
                    };
                    format!("Dict[{key}, {value}]")
                }
                _ => "object".into(),
            },
            _ => "object".into(),
        }
    }
}

/// The value of an internally tagged variant's tag (its one `const` property).
fn tag_value(variant: &Value) -> Option<String> {
    let props = variant.get("properties")?.as_object()?;
    props.values().find_map(|s| s.get("const")?.as_str().map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_python_stubs_naming_its_fields() {
        for game in crate::Games::builtin().ids() {
            let py = python_stubs(game);
            let class = format!("class {}Observation(TypedDict):\n", pascal(game.name()));
            assert!(py.contains(&class), "{py}");
            assert!(py.contains("    legal: List[str]\n"), "{py}");
        }
    }

    #[test]
    fn blade_stubs_have_literals_nullables_and_tagged_unions() {
        let py = python_stubs(crate::GameId::of::<crate::games::blade::Blade>());
        assert!(
            py.contains(
                "BladeCard = Literal[\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"B\", \"M\"]\n"
            ),
            "{py}"
        );
        assert!(py.contains("    to_act: Optional[int]\n"), "{py}");
        assert!(py.contains("    fields: List[List[BladeFieldCard]]\n"), "{py}");
        // `from` is a keyword: that variant takes the functional syntax.
        assert!(py.contains("BladeEventPlace = TypedDict(\n    \"BladeEventPlace\",\n"), "{py}");
        assert!(py.contains("        \"from\": \"BladeSource\",\n"), "{py}");
        assert!(py.contains("class BladeEventPlay(TypedDict):\n"), "{py}");
        assert!(py.contains("    kind: Literal[\"play\"]\n"), "{py}");
        assert!(py.contains("BladeEvent = Union[\"BladeEventPlace\", "), "{py}");
    }
}
