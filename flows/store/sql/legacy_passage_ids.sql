-- Passage ids still written the pre-version-7 way, whatever their config.
SELECT DISTINCT passage_id AS old_id FROM legacy_passage_keys;
