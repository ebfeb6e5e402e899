//! How Intensity is drawn for a person.

use super::View;
use crate::games::intensity::Intensity;

impl View for Intensity {}
