//! How LostCities is drawn for a person.

use super::View;
use crate::games::lost_cities::LostCities;

impl View for LostCities {}
