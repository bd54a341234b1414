"""Spark DataFrames in, per-query values out: the data path of :mod:`sklearn_ndcg.spark`.

The driver checks the frame and its columns, renames the needed columns to
private names, moves each query into one partition (one hash exchange on the
query id, skipped when the frame is hash-partitioned by it already) and runs
the in-memory engine (:func:`sklearn_ndcg.query_scores`) once per partition on
its Arrow batches (``mapInArrow``). A judgment pool is a second DataFrame: its
rows travel in the same exchange and are matched to the ranked documents on
(query id, document id) inside each partition, by an Arrow join.

pyspark is imported inside the functions only, so that importing this module
never imports it.
"""

from __future__ import annotations

import contextlib
import re
import warnings

import numpy as np

from .._compat import INSTALL_HINT
from .._engine import (
    JudgmentPool,
    RankingOptions,
    WeightedSums,
    query_values,
    stage,
)
from .._ir import trec_order_score
from .._metrics import (
    LOCATED,
    checked_columns,
    per_query,
    raise_for_frame,
    refused_rows,
)
from .._options import DOCNO

# private column names of the frame that is shuffled and scored
_Q, _Y, _S, _W, _D, _R, _DOC, _KIND, _I = (
    "_ndcg_qid",
    "_ndcg_label",
    "_ndcg_score",
    "_ndcg_weight",
    "_ndcg_docweight",
    "_ndcg_row",
    "_ndcg_docno",
    "_ndcg_kind",
    "_ndcg_index",
)
# Spark's default Arrow batch, 10,000 rows, costs per batch on both sides of the Python
# boundary; a partition is read whole anyway, so this module's own jobs use larger ones
ARROW_BATCH, BATCH_ROWS = "spark.sql.execution.arrow.maxRecordsPerBatch", 100_000
BOUNDS = ("judged", "lower", "upper")  # the per-query columns of bounds=True
SUMS = ("weighted_sum", "kept_weight", "total_weight", "n_kept", "n_queries", "scale")

_ROLE = {
    "qid": "query id of each document",
    "y_true": "relevance labels",
    "y_score": "predicted scores",
    "sample_weight": "query weights",
    "document_weight": "document weights",
    "docno": "document id of each row",
}


# an error of the package raised on an executor travels to the driver inside Spark's own
# exception, as text; these marks find its class and message there (see driver_errors)
_OPEN, _CLOSE = "<sklearn_ndcg>", "</sklearn_ndcg>"
_CARRIED = re.compile(rf"\b(ValueError|TypeError): {_OPEN}(.*?){_CLOSE}", re.DOTALL)


def import_pyspark_sql():
    """``pyspark.sql``, or an ImportError that says how to install it."""
    try:
        import pyspark.sql
    except ImportError as exc:
        raise ImportError(
            "sklearn_ndcg.spark needs pyspark; install it with "
            f"{INSTALL_HINT.format(extra='spark')}."
        ) from exc
    return pyspark.sql


def check_frame(frame, name: str = "frame") -> None:
    """``frame`` is a Spark DataFrame (classic or Spark Connect)."""
    sql = import_pyspark_sql()
    if isinstance(frame, sql.DataFrame):
        return
    module = type(frame).__module__.split(".")[0]
    if module == "pyspark":
        hint = f"a pyspark {type(frame).__name__}; give the whole DataFrame"
    elif module in ("pandas", "polars", "numpy"):
        hint = (
            f"an in-memory {module} object; use the functions of sklearn_ndcg, or "
            "spark.createDataFrame(...) to distribute it"
        )
    else:
        hint = f"a {type(frame).__name__}"
    raise TypeError(f"{name} must be a pyspark.sql.DataFrame in long format; got {hint}.")


def check_columns(frame, columns: dict, *, name: str = "frame") -> None:
    """Each named column exists; labels, scores and weights are numbers."""
    from pyspark.sql.types import NumericType

    fields = {field.name: field.dataType for field in frame.schema.fields}
    for argument, column in columns.items():
        if not isinstance(column, str) or column not in fields:
            raise ValueError(
                f"{argument}={column!r} is not a column of {name}; its columns are "
                f"{list(fields)}. Name the column that holds the {_ROLE[argument]}."
            )
        if argument not in ("qid", "docno") and not isinstance(fields[column], NumericType):
            raise TypeError(
                f"{argument}={column!r} names a column of type "
                f"{fields[column].simpleString()} in {name}; the {_ROLE[argument]} must be "
                "numbers."
            )


def holds_whole_queries(frame, qid: str) -> bool:
    """Whether each query's rows are in one partition already.

    True for a frame hash-partitioned by the query id column alone (e.g.
    ``frame.repartition(n, qid)``, or the output of a join or aggregation on
    it) and for a frame of one partition, as Spark's planner knows them; then
    no exchange is added. False where the plan cannot be read (Spark Connect).
    """
    try:
        partitioning = frame._jdf.queryExecution().sparkPlan().outputPartitioning()
        kind = partitioning.getClass().getSimpleName().rstrip("$")
        if kind == "SinglePartition":
            return True
        if kind != "HashPartitioning":
            return False
        expressions = partitioning.expressions()
        if expressions.size() != 1:
            return False
        expression = expressions.apply(0)
        return (
            expression.getClass().getSimpleName() == "AttributeReference"
            and expression.name() == qid
        )
    except Exception:  # no JVM plan to read: shuffle to be safe
        return False


def staged_rows(frame, *, columns: dict, ties: str, pool=None, pool_columns=None):
    """The rows to score, renamed to private names, each query in one partition.

    Returns ``(rows, spec)``: the DataFrame to give to :func:`partition_scores`
    (through ``mapInArrow``) and what the partitions need to know about it.
    """
    from pyspark.sql import functions as F

    selected = [F.col(columns["qid"]).alias(_Q), F.col(columns["y_score"]).cast("double").alias(_S)]
    if pool is None:
        selected.append(F.col(columns["y_true"]).cast("double").alias(_Y))
    else:
        selected.append(F.col(columns["docno"]).alias(_DOC))
    for argument, private in (("sample_weight", _W), ("document_weight", _D)):
        if argument in columns:
            selected.append(F.col(columns[argument]).cast("double").alias(private))
    whole = pool is None and holds_whole_queries(frame, columns["qid"])
    if ties == "first" and not whole:
        # the exchange loses the input order; carry each row's position along
        selected.append(F.monotonically_increasing_id().alias(_R))
    rows = frame.select(*selected)
    if pool is not None:
        judged = pool.select(
            F.col(pool_columns["qid"]).alias(_Q),
            F.col(pool_columns["docno"]).alias(_DOC),
            F.col(pool_columns["y_true"]).cast("double").alias(_Y),
        )
        # ranked rows (kind 0) and judgments (kind 1) in one table, one exchange
        rows = rows.withColumn(_KIND, F.lit(0).cast("byte")).unionByName(
            judged.withColumn(_KIND, F.lit(1).cast("byte")), allowMissingColumns=True
        )
    if not whole:
        rows = rows.repartition(_Q)
    spec = {
        "weights": [name for name in (_W, _D) if name in rows.columns],
        "pool": pool is not None,
    }
    return rows, spec


def _map_in_arrow(rows, function, schema):
    """``rows.mapInArrow(function, schema)``, without PySpark's version-check warnings.

    Creating an Arrow UDF checks pandas' version: PySpark 4 warns about pandas >= 3
    (this path does not use pandas), and PySpark 3.5 compares versions with
    distutils' deprecated ``LooseVersion``.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message="PySpark does not yet fully support pandas", category=FutureWarning
        )
        warnings.filterwarnings(
            "ignore", message="distutils Version classes", category=DeprecationWarning
        )
        return rows.mapInArrow(function, schema)


def score_frame(rows, spec, *, options: RankingOptions, qid_field):
    """Per-query (qid, score, weight) of ``rows``, a Spark DataFrame (not collected)."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    extra = BOUNDS if "levels" in spec else ()
    schema = StructType(
        [
            StructField(qid_field.name, qid_field.dataType, True),
            *(StructField(name, DoubleType(), True) for name in ("score", "weight", *extra)),
        ]
    )

    def scores(batches):
        import pyarrow as pa

        with marked_errors():
            result = partition_scores(batches, spec=spec, options=options)
        if result is None:
            return
        ids, score, weight, qid_type, *bounds = result
        yield pa.RecordBatch.from_arrays(
            [pa.array(ids, type=qid_type), pa.array(score), pa.array(weight)]
            + [pa.array(values) for values in bounds],
            names=[qid_field.name, "score", "weight", *extra],
        )

    return _map_in_arrow(rows, scores, schema)


def mean_of_frame(rows, spec, *, options: RankingOptions) -> float:
    """The weighted mean over queries: one row of partial sums per partition."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    schema = StructType([StructField(name, DoubleType(), False) for name in SUMS])

    def sums(batches):
        import pyarrow as pa

        with marked_errors():
            result = partition_scores(batches, spec=spec, options=options)
        if result is None:
            return
        score, weight = result[1], result[2]
        scale = float(weight.max()) if weight.size else 0.0
        partial = WeightedSums.of(score, weight / max(scale, np.finfo(float).tiny))
        row = [*(float(v) for v in partial), float(score.size), scale]
        yield pa.RecordBatch.from_arrays([pa.array([v]) for v in row], names=list(SUMS))

    with larger_arrow_batches(rows.sparkSession), driver_errors():
        collected = _map_in_arrow(rows, sums, schema).collect()
    partials = np.array([[row[name] for name in SUMS] for row in collected], dtype=float)
    return combine_sums(partials.reshape(-1, len(SUMS)))


@contextlib.contextmanager
def marked_errors():
    """On an executor: the package's ValueError or TypeError, marked for
    :func:`driver_errors` (its class and message are all that reach the driver)."""
    try:
        yield
    except (ValueError, TypeError) as error:
        raise type(error)(f"{_OPEN}{error}{_CLOSE}") from error


@contextlib.contextmanager
def driver_errors():
    """On the driver, around a Spark job: an error of the package raised on an
    executor is raised again here, its class and message first, without the
    Java and worker stack traces that Spark wraps it in."""
    try:
        yield
    except Exception as error:
        found = _CARRIED.search(str(error))
        if found is None:
            raise
        kind = ValueError if found.group(1) == "ValueError" else TypeError
        raise kind(found.group(2)) from None


@contextlib.contextmanager
def larger_arrow_batches(session):
    """Arrow batches of :data:`BATCH_ROWS` rows for the jobs run inside the block.

    Only where the session leaves ``spark.sql.execution.arrow.maxRecordsPerBatch``
    at Spark's default (not set by the user, in the session or in the Spark
    configuration); the setting is removed again on leaving. A session whose
    configuration cannot be read from the JVM (Spark Connect) is left alone.
    """
    try:
        chosen = session._jsparkSession.sessionState().conf().contains(ARROW_BATCH)
    except Exception:  # no JVM session: leave the setting alone
        chosen = True
    if not chosen:
        session.conf.set(ARROW_BATCH, str(BATCH_ROWS))
    try:
        yield
    finally:
        if not chosen:
            session.conf.unset(ARROW_BATCH)


def raise_located(error: ValueError, frame, columns: dict, options: RankingOptions) -> None:
    """A partition's error for bad values (missing, infinite, negative weights, labels
    the gain refuses) counts and numbers that partition's rows only: find them in the
    whole ``frame`` (rows numbered in its order, as ``frame.collect()`` lists them; one
    more Spark job over its checked columns, on this error path only) and raise the
    in-memory function's error for the same rows. Returns if ``error`` is another one."""
    if LOCATED not in str(error):
        return
    from pyspark.sql import functions as F

    checked = checked_columns(columns)
    values = frame.select(
        F.col(columns["qid"]), *(F.col(name).cast("double") for name in checked.values())
    )
    roles = list(checked)
    summaries = values.rdd.mapPartitionsWithIndex(
        lambda index, rows: [(index, _refused_rows(rows, roles, options))]
    ).collect()
    raise_for_frame([summary for _, summary in sorted(summaries)], options)


def _refused_rows(rows, roles: list, options: RankingOptions) -> dict:
    """:func:`refused_rows` of one partition's rows (query id, then a value per role)."""
    rows = list(rows)
    ids = [row[0] for row in rows]
    values = {
        role: np.array([np.nan if row[i] is None else row[i] for row in rows], dtype=np.float64)
        for i, role in enumerate(roles, start=1)
    }
    return refused_rows(values, ids, options)


def combine_sums(partials: np.ndarray) -> float:
    """The weighted mean from the partitions' sums (rows of :data:`SUMS`)."""
    if partials[:, 4].sum() == 0:
        raise ValueError("frame has no rows; at least one query with one document is needed.")
    scale = partials[:, 5]
    factor = scale / max(scale.max(), np.finfo(float).tiny)  # in units of the largest weight
    return (
        WeightedSums(
            float((partials[:, 0] * factor).sum()),
            float((partials[:, 1] * factor).sum()),
            float((partials[:, 2] * factor).sum()),
            int(partials[:, 3].sum()),
        )
    ).mean()


def partition_scores(batches, *, spec: dict, options: RankingOptions):
    """(ids, score, weight, Arrow type of the ids) of the queries of one partition.

    Runs on an executor: the partition's Arrow batches (whole queries) become
    one table, scored through the engine in one call with the options the driver
    resolved (their pool is None: the partition's judgments make it here). None for
    a partition without queries.
    """
    import pyarrow as pa

    batches = list(batches)
    if not batches or sum(batch.num_rows for batch in batches) == 0:
        return None
    table = pa.Table.from_batches(batches)
    qid_type = table.schema.field(_Q).type
    pool = None
    if spec["pool"]:
        table, pool, filled = _match_pool(table, options)
        if table is None:
            return None
        if filled:  # the filler row's query is no query of the ranking
            options = options.replace(unjudged_queries="drop")
    if spec.get("run") and _DOC in table.column_names and _repeats_a_document(table):
        # evaluate_run: each document of a query once, as in memory
        raise ValueError(
            "run lists a (qid, docno) pair more than once; give each document of a query once."
        )
    column = {name: _to_numpy(table.column(name)) for name in table.column_names}
    row_key = column.pop(_R, None)  # none in a pool's filler row
    if row_key is not None:  # ties="first": back to the input order
        # the exchange delivers runs of increasing keys, one per map task: timsort merges them
        order = np.argsort(row_key, kind="stable")
        column = {name: values[order] for name, values in column.items()}
    if spec.get("run") and (options.unjudged == "drop" or "levels" in spec):
        # trec_eval's -J and -B, as the in-memory evaluate_run: a negative level is pooled,
        # not judged
        column[_Y] = np.where(column[_Y] < 0, np.nan, column[_Y])
    if options.ties == DOCNO and _DOC in column:
        # trec_eval's order: tied scores by decreasing docno; str order is code-point
        # order, the byte order of UTF-8 (trec_eval's strcmp)
        codes = np.unique(column[_DOC].astype(str), return_inverse=True)[1].ravel()
        column[_S] = trec_order_score(column[_S], codes)
        options = options.replace(ties="first")
    # without document ids, "docno" stays: the engine refuses tied documents of different
    # labels as in memory, rather than ordering them by the partition's row order
    if "levels" in spec:  # evaluate_run(bounds=True): as the in-memory query_scores
        staged = stage(column[_Y], column[_S], options.replace(pool=pool), qid=column[_Q])
        result = query_values(staged, options.replace(pool=pool), levels=spec["levels"])
        ids, score = result.ids, result.values
        bounds = result.bounds  # set: levels are given
        return ids, score, np.ones(ids.shape[0]), qid_type, *bounds  # type: ignore[misc]
    ids, score, weight = per_query(
        column[_Y],
        column[_S],
        options.replace(pool=pool),
        qid=column[_Q],
        sample_weight=column.get(_W),
        document_weight=column.get(_D),
    )
    weight = np.ones(ids.shape[0]) if weight is None else weight
    return ids, score, weight, qid_type


def _repeats_a_document(table) -> bool:
    """Whether a (query id, document id) pair is in more than one row (a hash aggregation)."""
    keys = table.select([_Q, _DOC])
    return keys.group_by([_Q, _DOC]).aggregate([]).num_rows != keys.num_rows


def _to_numpy(column):
    """An Arrow column as a numpy array (nulls as NaN for numbers, None for strings)."""
    return column.to_numpy() if column.num_chunks else np.array([])


def _match_pool(table, options: RankingOptions):
    """Labels of the ranked rows from the judgments, matched on (query, document).

    Returns the ranked rows with their labels (null where not judged), the
    :class:`JudgmentPool` of the partition's judgments, and whether the rows are a
    filler. A partition with judgments but no ranked row scores its queries 0 with
    ``missing_queries="zero"``: one unjudged filler row of a query the pool lacks
    (left out by the engine) stands in for the empty ranking. Ranked queries the
    pool lacks are left out, or, with ``unjudged_queries="zero"``, kept for the
    engine, which judges them without relevant document (a partition may hold only
    such queries: its pool is then theirs, each with one document of level 0).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    is_pool = pc.equal(table.column(_KIND), 1)
    judged = table.filter(is_pool).select([_Q, _DOC, _Y])
    ranked = table.filter(pc.invert(is_pool)).drop_columns([_Y, _KIND])
    keep_unjudged = options.unjudged_queries == "zero"
    if judged.num_rows == 0 and not (keep_unjudged and ranked.num_rows):
        return None, None, False
    if _repeats_a_document(judged):
        raise ValueError(
            "pool judges a document of a query more than once; give one label per "
            "(query id, document id)."
        )
    if judged.num_rows:
        pool = JudgmentPool(_to_numpy(judged.column(_Q)), _to_numpy(judged.column(_Y)))
    else:  # only queries the pool lacks, kept by unjudged_queries="zero"
        ids = np.unique(_to_numpy(ranked.column(_Q)))
        pool = JudgmentPool(ids, np.zeros(ids.shape[0]))
    if not keep_unjudged:
        # ranked queries the pool lacks are left out, as in memory; the engine refuses a
        # ranking without any judged query, which one partition may be
        ranked = ranked.filter(pc.is_in(ranked.column(_Q), value_set=judged.column(_Q).unique()))
    if ranked.num_rows == 0:
        if options.missing_queries == "drop":
            return None, None, False
        return _filler(judged), pool, True
    ranked = ranked.append_column(_I, pa.array(np.arange(ranked.num_rows)))
    ranked = ranked.join(judged, keys=[_Q, _DOC], join_type="left outer")
    ranked = ranked.take(pc.sort_indices(ranked, [(_I, "ascending")])).drop_columns([_I])
    return ranked, pool, False


def _filler(judged):
    """One unjudged row of a query id that the pool does not hold."""
    import pyarrow as pa

    ids = _to_numpy(judged.column(_Q))
    if ids.dtype.kind in "iu":
        filler = ids.max() + 1 if ids.max() < np.iinfo(ids.dtype).max else ids.min() - 1
    elif ids.dtype.kind == "f":
        filler = np.nextafter(ids.max(), np.inf)
    else:
        filler = max(ids) + "\uffff"
    return pa.table(
        {
            _Q: pa.array([filler], type=judged.schema.field(_Q).type),
            _S: pa.array([0.0]),
            _Y: pa.array([None], type=pa.float64()),
        }
    )
