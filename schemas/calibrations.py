"""Pandera model of `calibrations`: the named cut-offs `faith calibrate` fitted."""

from __future__ import annotations

import datetime as dt

import pandera.polars as pa
import polars as pl


class Calibrations(pa.DataFrameModel):
    """`calibrations`: one row a named calibration of the offline judge."""

    name: str = pa.Field(unique=True, description="What `--calibration NAME` names.")
    judge_kind: str = pa.Field(isin=["grounded"], description="The judge it calibrates.")
    judge_model: str = pa.Field(description="Its rules version, e.g. grounded-v1.")
    supported: float = pa.Field(in_range={"min_value": 0, "max_value": 1}, description="yes from.")
    silent: float = pa.Field(in_range={"min_value": 0, "max_value": 1}, description="idk below.")
    threshold: float = pa.Field(
        in_range={"min_value": 0, "max_value": 1}, description="The case pass mark fitted."
    )
    penalize_ambiguous_claims: bool = pa.Field(description="The score it was fitted on.")
    labels: pl.Int32 = pa.Field(ge=1, description="Labelled cases fitted on.")
    positives: pl.Int32 = pa.Field(ge=1, description="Of them, labelled 1 (faithful).")
    claims_labelled: pl.Int32 = pa.Field(ge=0, description="Claims with labels of their own.")
    folds: pl.Int32 = pa.Field(ge=2, description="k of the cross-validation.")
    seed: pl.Int32 = pa.Field(description="Seed of the folds and the bootstrap.")
    labels_hash: str = pa.Field(str_length=32, description="md5 of the sorted labels.")
    agreement: str = pa.Field(description="JSON: the cross-validated agreement table.")
    created_at: dt.datetime = pa.Field(description="UTC.")
    weights: str = pa.Field(
        nullable=True,
        description="JSON: the judge's feature weights refitted on the labels (NULL: its own).",
    )

    class Config:
        strict = True
