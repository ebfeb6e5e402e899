//! The observation of every game as a JSON Schema, generated from the Rust types with `schemars`
//! (the doc comments become descriptions), and the LuaLS type annotations generated from that
//! schema, and the Python `TypedDict` stubs (python.rs), so that none can drift from the JSON a
//! bot receives.
//!
//! The committed copies live in `docs/schema/<game>.observation.json` and are compared with the
//! generated ones by a test; `arena schema --game G` prints them, `arena new` writes the
//! annotations into a Lua project.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

mod python;
pub use python::python_stubs;

// ---- generation ----------------------------------------------------------------------------

/// The JSON Schema of game `game`'s observation.
pub fn observation_schema(game: crate::play::GameId) -> Value {
    game.observation_schema()
}

/// The field names of game `game`'s observation: its top-level fields (in the schema's order),
/// and every field name of any object in it (nested ones and those that may be null included).
pub fn observation_fields(game: crate::play::GameId) -> (Vec<String>, std::collections::BTreeSet<String>) {
    fn walk(v: &Value, all: &mut std::collections::BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    all.extend(props.keys().cloned());
                }
                map.values().for_each(|x| walk(x, all));
            }
            Value::Array(items) => items.iter().for_each(|x| walk(x, all)),
            _ => {}
        }
    }
    let schema = observation_schema(game);
    let top = match schema.get("properties") {
        Some(Value::Object(props)) => props.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let mut all = std::collections::BTreeSet::new();
    walk(&schema, &mut all);
    (top, all)
}

/// What `check` says about reads of observation fields that do not exist (`read` counts the
/// decisions that read each): a field of the game's schema that was
/// absent (null) is no typo and is left out. Empty when there is nothing to say.
pub fn unknown_fields_text(game: crate::play::GameId, read: &BTreeMap<String, u64>) -> String {
    let (top, known) = observation_fields(game);
    let typos: Vec<(&String, &u64)> = read.iter().filter(|(k, _)| !known.contains(*k)).collect();
    if typos.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = typos
        .iter()
        .map(|(key, decisions)| {
            let hint =
                closest_field(&known, key).map(|k| format!("; did you mean `{k}`?")).unwrap_or_default();
            format!("`{key}` ({decisions} decisions{hint})")
        })
        .collect();
    let mut out = format!("observation fields read that do not exist (they are nil): {}", listed.join(", "));
    out.push_str(&format!(
        "\n  the observation's fields: {} (all of them, nested too: arena schema --game {game})\n",
        top.join(", ")
    ));
    out
}

/// The field of the observation (any of `known`, from [`observation_fields`]) at most two edits
/// from `key`, the closest: what a bot that read `key` probably meant.
pub fn closest_field<'a>(known: &'a std::collections::BTreeSet<String>, key: &str) -> Option<&'a String> {
    known
        .iter()
        .map(|k| (crate::play::registry::edit_distance(k, key), k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
}

/// The schema file's text as committed in `docs/schema/` (pretty JSON, one trailing newline).
pub fn observation_schema_text(game: crate::play::GameId) -> String {
    serde_json::to_string_pretty(&observation_schema(game)).expect("json") + "\n"
}

/// The LuaLS (`lua-language-server`) annotations of game `game`'s observation: a `---@meta` file
/// with one `---@class` per object type and one `---@alias` per enumeration, generated from
/// [`observation_schema`].
pub fn lua_annotations(game: crate::play::GameId) -> String {
    let schema = observation_schema(game);
    let game = game.name();
    let prefix = pascal(game);
    let mut out = format!(
        "---@meta\n-- cardarena: the {game} observation, for the Lua language server (VS Code: the \"Lua\"\n\
         -- extension by sumneko). Generated from the arena's Rust types by `arena new` (the same\n\
         -- text as `arena schema --game {game} --lua`); do not edit.\n\
         -- Arrays are 1-based Lua sequences: the entry of seat s is at [s + 1]. JSON null is nil.\n\n"
    );
    let mut w = LuaWriter { prefix: prefix.clone(), defs: Map::new() };
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        w.defs = defs.clone();
    }
    let root_name = schema.get("title").and_then(Value::as_str).unwrap_or("Observation");
    let mut blocks: BTreeMap<String, String> = BTreeMap::new();
    for (name, def) in &w.defs {
        blocks.insert(w.class_name(name), w.definition(&w.class_name(name), def));
    }
    out.push_str(&w.definition(&w.class_name(root_name), &schema));
    for block in blocks.values() {
        out.push('\n');
        out.push_str(block);
    }
    out
}

/// TypeScript declarations (a `.d.ts` file) of game `game`'s observation, for JavaScript bots'
/// editors (`// @ts-check` with a JSDoc `@param {import("./blade").BladeObservation} obs`): one
/// `export interface` per object type and one `export type` per enumeration or union, generated
/// from [`observation_schema`]. `None` for an unknown game.
pub fn ts_declarations(game: crate::play::GameId) -> String {
    let schema = observation_schema(game);
    let game = game.name();
    let mut w = LuaWriter { prefix: pascal(game), defs: Map::new() };
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        w.defs = defs.clone();
    }
    let mut out = format!(
        "// cardarena: the {game} observation, for JavaScript and TypeScript editors. Generated from\n\
         // the arena's Rust types (`arena schema --game {game} --ts`); do not edit.\n\
         // Arrays are 0-based: the entry of seat s is at [s]. Integers are numbers.\n\n"
    );
    let root_name = schema.get("title").and_then(Value::as_str).unwrap_or("Observation");
    out.push_str(&ts_definition(&w, &w.class_name(root_name), &schema));
    let mut blocks: BTreeMap<String, String> = BTreeMap::new();
    for (name, def) in &w.defs {
        blocks.insert(w.class_name(name), ts_definition(&w, &w.class_name(name), def));
    }
    for block in blocks.values() {
        out.push('\n');
        out.push_str(block);
    }
    out.push_str(
        "\n/** What `init(info)` receives before the first decision. */\n\
         export interface InitInfo {\n  game: string;\n  variant: string;\n  seat: number;\n  \
         players: number;\n  seed: number;\n}\n",
    );
    out
}

fn ts_doc(text: Option<String>, indent: &str) -> String {
    match text {
        Some(d) if !d.is_empty() => format!("{indent}/** {} */\n", d.replace("*/", "* /")),
        _ => String::new(),
    }
}

/// The declaration of one named type.
fn ts_definition(w: &LuaWriter, name: &str, schema: &Value) -> String {
    let mut out = ts_doc(description(schema), "");
    if let Some(values) = enum_values(schema) {
        out.push_str(&format!("export type {name} =\n"));
        for (v, d) in values {
            let doc = d.map_or_else(String::new, |d| format!(" // {d}"));
            out.push_str(&format!("  | {}{doc}\n", lua_literal(&v)));
        }
        out.push_str("  ;\n");
        return out;
    }
    if let Some(variants) = schema.get("oneOf").and_then(Value::as_array) {
        if variants.iter().all(|v| v.get("properties").is_some()) {
            let members: Vec<String> = variants.iter().map(|v| ts_object(w, v, "  ")).collect();
            out.push_str(&format!("export type {name} =\n  | {};\n", members.join("\n  | ")));
            return out;
        }
    }
    if schema.get("properties").is_some() {
        out.push_str(&format!("export interface {name} {}\n", ts_object(w, schema, "")));
        return out;
    }
    out.push_str(&format!("export type {name} = {};\n", ts_type(w, schema)));
    out
}

/// An object type's body: `{ field: type; ... }`, each field with its description.
fn ts_object(w: &LuaWriter, schema: &Value, indent: &str) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::from("{\n");
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (field, s) in props {
            let optional = if required.contains(&field.as_str()) { "" } else { "?" };
            out.push_str(&ts_doc(description(s), &format!("{indent}  ")));
            out.push_str(&format!("{indent}  {field}{optional}: {};\n", ts_type(w, s)));
        }
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// The TypeScript type of a schema.
fn ts_type(w: &LuaWriter, s: &Value) -> String {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        return w.class_name(r.rsplit('/').next().unwrap_or(r));
    }
    if let Some(c) = s.get("const") {
        return lua_literal(c);
    }
    if let Some(alts) = s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array) {
        return alts.iter().map(|a| ts_type(w, a)).collect::<Vec<_>>().join(" | ");
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return values.iter().map(lua_literal).collect::<Vec<_>>().join(" | ");
    }
    match s.get("type") {
        Some(Value::Array(types)) => types
            .iter()
            .map(|t| {
                let mut single = s.clone();
                single["type"] = t.clone();
                ts_type(w, &single)
            })
            .collect::<Vec<_>>()
            .join(" | "),
        Some(Value::String(t)) => match t.as_str() {
            "integer" | "number" => "number".into(),
            "boolean" => "boolean".into(),
            "string" => "string".into(),
            "null" => "null".into(),
            "array" => {
                let item = s.get("items").map_or_else(|| "unknown".into(), |i| ts_type(w, i));
                if item.contains(['|', ' ']) {
                    format!("({item})[]")
                } else {
                    format!("{item}[]")
                }
            }
            "object" => {
                let key = s.get("propertyNames").map_or_else(|| "string".into(), |k| ts_type(w, k));
                let value = match s.get("additionalProperties") {
                    Some(v @ Value::Object(_)) => ts_type(w, v),
                    _ => "unknown".into(),
                };
                format!("Record<{key}, {value}>")
            }
            _ => "unknown".into(),
        },
        _ => "unknown".into(),
    }
}

/// `(value, description)` of an enumeration (`enum`, or `oneOf`/`anyOf` of `const`s).
pub(super) fn enum_values(schema: &Value) -> Option<Vec<(Value, Option<String>)>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.iter().map(|v| (v.clone(), None)).collect());
    }
    let alts = schema.get("oneOf").or_else(|| schema.get("anyOf"))?.as_array()?;
    alts.iter()
        .map(|a| {
            let v = a.get("const").cloned().or_else(|| {
                a.get("enum").and_then(Value::as_array).filter(|e| e.len() == 1).map(|e| e[0].clone())
            })?;
            Some((v, description(a)))
        })
        .collect()
}

/// `lost-cities` → `LostCities` (the type names in schemas, LuaLS classes and `arena new`).
pub fn pascal(game: &str) -> String {
    game.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

struct LuaWriter {
    prefix: String,
    defs: Map<String, Value>,
}

fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn comment_lines(text: &str) -> String {
    text.lines().map(|l| format!("--- {l}\n")).collect()
}

impl LuaWriter {
    fn class_name(&self, name: &str) -> String {
        if name.starts_with(&self.prefix) {
            name.to_string()
        } else {
            format!("{}{}", self.prefix, name.replace('_', ""))
        }
    }

    /// The annotation block of one named type.
    fn definition(&self, name: &str, schema: &Value) -> String {
        let mut out = String::new();
        if let Some(d) = description(schema) {
            out.push_str(&comment_lines(&d));
        }
        // enumerations of strings: an alias with one line per value
        if let Some(values) = enum_values(schema) {
            out.push_str(&format!("---@alias {name}\n"));
            for (v, d) in values {
                match d {
                    Some(d) => out.push_str(&format!("---| {} # {d}\n", lua_literal(&v))),
                    None => out.push_str(&format!("---| {}\n", lua_literal(&v))),
                }
            }
            return out;
        }
        if let Some(variants) = schema.get("oneOf").and_then(Value::as_array) {
            if variants.iter().all(|v| v.get("properties").is_some()) {
                return out + &self.merged_class(name, variants);
            }
        }
        if schema.get("properties").is_some() {
            out.push_str(&format!("---@class {name}\n"));
            out.push_str(&self.fields(schema, None));
            return out;
        }
        out.push_str(&format!("---@alias {name} {}\n", self.type_of(schema)));
        out
    }

    /// The `---@field` lines of an object schema.
    fn fields(&self, schema: &Value, only_for: Option<&str>) -> String {
        let mut out = String::new();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(Value::Object(props)) = schema.get("properties") {
            for (field, s) in props {
                let optional = !required.contains(&field.as_str()) || only_for.is_some();
                let mut ty = self.type_of(s);
                if optional && !ty.ends_with('?') {
                    ty.push('?');
                }
                let mut d = description(s).unwrap_or_default();
                if let Some(kind) = only_for {
                    d = format!("({kind} only) {d}");
                }
                out.push_str(&format!("---@field {field} {ty} {d}\n").replace(" \n", "\n"));
            }
        }
        out
    }

    /// An internally tagged enum (a `oneOf` of objects): one class with every field; the fields
    /// that only some variants have are optional and say which.
    fn merged_class(&self, name: &str, variants: &[Value]) -> String {
        let mut out = format!("---@class {name}\n");
        let tag = variants[0]
            .get("properties")
            .and_then(Value::as_object)
            .and_then(|p| p.iter().find(|(_, s)| s.get("const").is_some()).map(|(k, _)| k.clone()));
        let kind_of = |v: &Value| -> Option<String> {
            let t = tag.as_ref()?;
            v.get("properties")?.get(t)?.get("const")?.as_str().map(str::to_string)
        };
        let common: Vec<String> = variants[0]
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| {
                p.keys()
                    .filter(|k| {
                        variants.iter().all(|v| v.get("properties").and_then(|p| p.get(*k)).is_some())
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        if let Some(t) = &tag {
            let kinds: Vec<String> = variants.iter().filter_map(kind_of).map(|k| format!("{k:?}")).collect();
            let descs: Vec<String> = variants
                .iter()
                .filter_map(|v| Some(format!("{}: {}", kind_of(v)?, description(v).unwrap_or_default())))
                .collect();
            out.push_str(&format!("---@field {t} {} {}\n", kinds.join("|"), descs.join(" | ")));
        }
        let mut seen: Vec<String> = tag.iter().cloned().collect();
        for v in variants {
            let kind = kind_of(v).unwrap_or_default();
            if let Some(Value::Object(props)) = v.get("properties") {
                for (field, s) in props {
                    if seen.contains(field) {
                        continue;
                    }
                    seen.push(field.clone());
                    let is_common = common.contains(field);
                    let mut ty = self.type_of(s);
                    if !is_common && !ty.ends_with('?') {
                        ty.push('?');
                    }
                    let mut d = description(s).unwrap_or_default();
                    if !is_common {
                        let holders: Vec<String> = variants
                            .iter()
                            .filter(|o| o.get("properties").and_then(|p| p.get(field)).is_some())
                            .filter_map(kind_of)
                            .collect();
                        d = format!(
                            "({} only) {d}",
                            if holders.is_empty() { kind.clone() } else { holders.join(", ") }
                        );
                    }
                    out.push_str(&format!("---@field {field} {ty} {d}\n").replace(" \n", "\n"));
                }
            }
        }
        out
    }

    /// The LuaLS type of a schema.
    fn type_of(&self, s: &Value) -> String {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap_or(r);
            return self.class_name(name);
        }
        if let Some(c) = s.get("const") {
            return lua_literal(c);
        }
        if let Some(alts) = s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array) {
            let mut nullable = false;
            let mut types = Vec::new();
            for a in alts {
                if a.get("type").and_then(Value::as_str) == Some("null") {
                    nullable = true;
                } else {
                    types.push(self.type_of(a));
                }
            }
            let t = types.join("|");
            return if nullable { format!("{t}?") } else { t };
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            return values.iter().map(lua_literal).collect::<Vec<_>>().join("|");
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
                        self.type_of(&single)
                    })
                    .collect();
                let t = rest.join("|");
                if nullable {
                    format!("{t}?")
                } else {
                    t
                }
            }
            Some(Value::String(t)) => match t.as_str() {
                "integer" => "integer".into(),
                "number" => "number".into(),
                "boolean" => "boolean".into(),
                "string" => "string".into(),
                "null" => "nil".into(),
                "array" => {
                    let item = s.get("items").map(|i| self.type_of(i)).unwrap_or_else(|| "any".into());
                    if item.contains(['|', '?']) {
                        format!("({item})[]")
                    } else {
                        format!("{item}[]")
                    }
                }
                "object" => {
                    let key =
                        s.get("propertyNames").map(|k| self.type_of(k)).unwrap_or_else(|| "string".into());
                    let value = match s.get("additionalProperties") {
                        Some(v @ Value::Object(_)) => self.type_of(v),
                        _ => "any".into(),
                    };
                    format!("table<{key}, {value}>")
                }
                _ => "any".into(),
            },
            _ => "any".into(),
        }
    }
}

fn lua_literal(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rng::{Rng, Stream};
    use crate::games::{blade::Blade, ecard::Ecard, intensity::Intensity, lost_cities::LostCities, Game};

    /// Checks `value` against the subset of JSON Schema that schemars writes; the path names
    /// the first mismatch.
    fn validate(root: &Value, schema: &Value, value: &Value, path: &str) -> Result<(), String> {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap();
            return validate(root, &root["$defs"][name], value, path);
        }
        if let Some(c) = schema.get("const") {
            if c != value {
                return Err(format!("{path}: {value} is not {c}"));
            }
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array) {
            if !e.contains(value) {
                return Err(format!("{path}: {value} not in {e:?}"));
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(alts) = schema.get(key).and_then(Value::as_array) {
                let ok = alts.iter().filter(|a| validate(root, a, value, path).is_ok()).count();
                if ok == 0 || (key == "oneOf" && ok > 1) {
                    return Err(format!("{path}: {value} matches {ok} of the {key}"));
                }
            }
        }
        if let Some(t) = schema.get("type") {
            let types: Vec<&str> = match t {
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                other => vec![other.as_str().unwrap()],
            };
            let ok = types.iter().any(|t| match *t {
                "null" => value.is_null(),
                "boolean" => value.is_boolean(),
                "integer" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "string" => value.is_string(),
                "array" => value.is_array(),
                "object" => value.is_object(),
                _ => false,
            });
            if !ok {
                return Err(format!("{path}: {value} is not {types:?}"));
            }
        }
        if let (Some(min), Some(v)) = (schema.get("minimum").and_then(Value::as_f64), value.as_f64()) {
            if v < min {
                return Err(format!("{path}: {v} < {min}"));
            }
        }
        if let (Some(p), Some(v)) = (schema.get("pattern").and_then(Value::as_str), value.as_str()) {
            // the only pattern is the Lost Cities card
            assert_eq!(p, "^(I|[2-9]|10)[DOMJVP]$");
            if v.parse::<crate::games::lost_cities::Card>().is_err() {
                return Err(format!("{path}: {v} is not a card"));
            }
        }
        if let Some(items) = value.as_array() {
            let n = items.len() as u64;
            if schema.get("minItems").and_then(Value::as_u64).is_some_and(|m| n < m)
                || schema.get("maxItems").and_then(Value::as_u64).is_some_and(|m| n > m)
            {
                return Err(format!("{path}: {n} items"));
            }
            if let Some(item) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    validate(root, item, v, &format!("{path}[{i}]"))?;
                }
            }
        }
        if let Some(map) = value.as_object() {
            let props = schema.get("properties").and_then(Value::as_object);
            for req in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                if !map.contains_key(req.as_str().unwrap()) {
                    return Err(format!("{path}: no field {req}"));
                }
            }
            for (k, v) in map {
                let sub = props.and_then(|p| p.get(k)).or_else(|| schema.get("additionalProperties"));
                match sub {
                    Some(Value::Bool(false)) | None if props.is_some() => {
                        return Err(format!("{path}: field {k} is not in the schema"));
                    }
                    Some(sub @ Value::Object(_)) => validate(root, sub, v, &format!("{path}.{k}"))?,
                    _ => {}
                }
                if let Some(names) = schema.get("propertyNames") {
                    validate(root, names, &Value::String(k.clone()), &format!("{path} key"))?;
                }
            }
        }
        Ok(())
    }

    /// Every observation of every seat, through a few random matches of every variant, is valid
    /// against the game's schema (CONTRACT.md §2: the observation is the contract).
    fn observations_follow_the_schema<G: crate::bots::Hosted>() {
        let schema = G::observation_schema();
        for &variant in G::variants() {
            for seed in 0..2 {
                let mut state = G::new(variant, seed);
                let mut rng = Rng::new(seed, Stream::Arena);
                for step in 0.. {
                    // every few steps (an observation holds the whole history) and at the end
                    for seat in (0..G::PLAYERS).filter(|_| step % 5 == 0 || state.is_over()) {
                        let obs = serde_json::to_value(state.observe(seat)).unwrap();
                        if let Err(e) = validate(&schema, &schema, &obs, "obs") {
                            panic!("{} {variant} seed {seed}: {e}", G::NAME);
                        }
                    }
                    if state.is_over() {
                        break;
                    }
                    let seat = state.to_act()[0];
                    let legal = state.legal_strings(seat);
                    let action = rng.choose(&legal).unwrap().clone();
                    state.play(seat, &action).unwrap();
                }
            }
        }
    }

    #[test]
    fn observations_of_every_game_follow_their_schema() {
        observations_follow_the_schema::<Blade>();
        observations_follow_the_schema::<Ecard>();
        observations_follow_the_schema::<LostCities>();
        observations_follow_the_schema::<Intensity>();
    }

    #[test]
    fn the_validator_catches_a_wrong_observation() {
        let schema = observation_schema(crate::GameId::of::<Blade>());
        let mut obs = serde_json::to_value(Blade::new(Blade::variants()[0], 1).observe(0)).unwrap();
        assert!(validate(&schema, &schema, &obs, "obs").is_ok());
        obs["hand"][0] = Value::String("9".into());
        assert!(validate(&schema, &schema, &obs, "obs").is_err());
        obs["hand"] = Value::Null;
        assert!(validate(&schema, &schema, &obs, "obs").is_err());
    }

    #[test]
    fn every_game_has_a_schema_and_annotations() {
        for g in crate::Games::builtin().ids() {
            let schema = observation_schema(g);
            assert_eq!(schema["type"], "object", "{g}");
            assert!(schema["properties"]["legal"].is_object(), "{g}");
            let lua = lua_annotations(g);
            assert!(lua.starts_with("---@meta\n"), "{g}");
            assert!(lua.contains(&format!("---@class {}Observation\n", pascal(g.name()))), "{lua}");
            assert!(lua.contains("---@field legal string[]"), "{lua}");
        }
    }

    #[test]
    fn blade_annotations_name_the_card_values_and_nullable_fields() {
        let lua = lua_annotations(crate::GameId::of::<Blade>());
        assert!(lua.contains("---@alias BladeCard\n"), "{lua}");
        assert!(lua.contains("---| \"B\""), "{lua}");
        assert!(lua.contains("---@field to_act integer?"), "{lua}");
        assert!(lua.contains("---@field fields BladeFieldCard[][]"), "{lua}");
    }
}
