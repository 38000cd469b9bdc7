"""The test-set table of `hauser sacrebleu`: the name of every test set sacreBLEU 2.4.3 knows,
its language pairs and, for each pair, the reference fields sacreBLEU scores against (for the
WMT XML sets, the translators it allows; otherwise every `ref` field). `hauser sacrebleu` reads
the references of a test set from sacreBLEU's cache ($SACREBLEU or ~/.sacrebleu, the processed
`NAME.LANGPAIR.FIELD` files) and uses this table to know which files those are and to refuse,
as sacreBLEU does (exit 1), unknown test sets and language pairs. Nothing is downloaded.

Writes hauser-cli/src/drop_in/sacrebleu/testsets.tsv: NAME, then per pair LANGPAIR=REFS;FIELDS (the
reference fields, then every field, in sacreBLEU's order, where known without a download).
Usage: .cache/sacre243/bin/python tools/gen/gen_sacrebleu_testsets.py
"""

import os

from sacrebleu.dataset import DATASETS
from sacrebleu.dataset.wmt_xml import WMTXMLDataset

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hauser-cli", "src", "drop_in", "sacrebleu", "testsets.tsv")


def ref_fields(ds, langpair):
    if isinstance(ds, WMTXMLDataset):
        return ds._get_langpair_allowed_refs(langpair)
    try:
        return [f for f in ds.fieldnames(langpair) if f.startswith("ref")]
    except Exception:  # a set whose field names need its downloaded files
        return ["ref"]


def all_fields(ds, langpair):
    """Every field of the pair, when sacreBLEU knows them without the downloaded files (the WMT
    XML sets read them from the raw file: left empty)."""
    if isinstance(ds, WMTXMLDataset):
        return []
    try:
        return ds.fieldnames(langpair)
    except Exception:
        return []


def main():
    lines = []
    for name, ds in DATASETS.items():
        pairs = [
            f"{lp}={','.join(ref_fields(ds, lp))};{','.join(all_fields(ds, lp))}"
            for lp in ds.langpairs
        ]
        lines.append("\t".join([name, *pairs]))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} test sets written to {OUT}")


if __name__ == "__main__":
    main()
