//! How Blade is drawn for a person.

use super::View;
use crate::games::blade::Blade;

impl View for Blade {}
