"""The queue config model: strict decoding, the structs, properties, the resolved tree, placement and guarantees."""
