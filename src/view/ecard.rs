//! How Ecard is drawn for a person.

use super::View;
use crate::games::ecard::Ecard;

impl View for Ecard {}
