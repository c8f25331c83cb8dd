-- faithpipe storage, version 7: passage ids are version-independent from now on
-- (md5_number_lower of the passage text). The ids stored before were polars' hash(), which
-- polars keeps stable within one version only. The database does not hold passage text, so
-- they are recorded here, and `faith rekey SOURCE` maps them to the new ids from the logs.
CREATE TABLE legacy_passage_keys (
    config_id  VARCHAR NOT NULL,
    passage_id UBIGINT NOT NULL,               -- an id written before version 7
    PRIMARY KEY (config_id, passage_id)
);

INSERT INTO legacy_passage_keys
SELECT DISTINCT config_id, passage_id FROM truths;
