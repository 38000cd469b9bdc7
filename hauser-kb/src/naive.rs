//! The reference method: a list of rows scanned in full for every query, as the original
//! implementation filters its pandas dataframe. Used to check the index (property tests) and as
//! the baseline of the benchmarks; not meant for real use.

use crate::clean::{Normalizer, Role};
use crate::error::Result;
use crate::ingest::TripletSink;

/// One row with normalised keys.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanRow {
    /// Normalised topic.
    pub topic: String,
    /// Normalised property.
    pub property: String,
    /// Normalised vehicle.
    pub vehicle: String,
    /// n.
    pub count: f64,
    /// P (1 when the source has none).
    pub plausibility: f64,
}

/// All rows, scanned per query.
#[derive(Debug, Clone, Default)]
pub struct ScanKb {
    normalizer: Normalizer,
    /// The rows in input order.
    pub rows: Vec<ScanRow>,
}

impl ScanKb {
    /// An empty scan KB.
    pub fn new(normalizer: Normalizer) -> Self {
        Self {
            normalizer,
            rows: Vec::new(),
        }
    }

    /// Relevance of raw keys: sum of n * P over every row matching both, as the dataframe filter does.
    pub fn relevance(&self, topic: &str, vehicle: &str) -> f64 {
        let t = self.normalizer.clean(topic, Role::Entity);
        let v = self.normalizer.clean(vehicle, Role::Entity);
        self.rows
            .iter()
            .filter(|r| r.topic == t && r.vehicle == v)
            .map(|r| r.plausibility * r.count)
            .sum()
    }

    /// Sum of n over the rows matching both keys.
    pub fn pair_count(&self, topic: &str, vehicle: &str) -> f64 {
        let t = self.normalizer.clean(topic, Role::Entity);
        let v = self.normalizer.clean(vehicle, Role::Entity);
        self.rows
            .iter()
            .filter(|r| r.topic == t && r.vehicle == v)
            .map(|r| r.count)
            .sum()
    }

    /// N(v) of a raw vehicle: sum of n over every row with that vehicle.
    pub fn vehicle_count(&self, vehicle: &str) -> f64 {
        let v = self.normalizer.clean(vehicle, Role::Entity);
        self.rows
            .iter()
            .filter(|r| r.vehicle == v)
            .map(|r| r.count)
            .sum()
    }
}

impl TripletSink for ScanKb {
    fn normalizer(&self) -> Normalizer {
        self.normalizer
    }

    fn add(
        &mut self,
        topic: &str,
        property: &str,
        vehicle: &str,
        count: f64,
        plausibility: Option<f64>,
    ) -> Result<bool> {
        let n = self.normalizer;
        let topic = n.clean(topic, Role::Entity);
        let vehicle = n.clean(vehicle, Role::Entity);
        if topic.is_empty() || vehicle.is_empty() {
            return Ok(false);
        }
        self.rows.push(ScanRow {
            topic,
            property: n.clean(property, Role::Property),
            vehicle,
            count,
            plausibility: plausibility.unwrap_or(1.0),
        });
        Ok(true)
    }
}
