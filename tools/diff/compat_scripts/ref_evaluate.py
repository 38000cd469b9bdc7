"""Runs a script against Hugging Face evaluate where the hub is not reachable: ``evaluate.load``
builds the metric script of EVALUATE_REPO/metrics/NAME/NAME.py (bleu's with NMT_BLEU as its
nmt_bleu), as evaluate's loader lays it out, with evaluate's own EvaluationModule (compute, add,
add_batch, features, seeding); meteor reads NLTK_DATA_ROOT. Usage: python ref_evaluate.py SCRIPT"""

import importlib
import os
import runpy
import shutil
import sys
import tempfile

import evaluate
import evaluate.loading

REPO = os.environ["EVALUATE_REPO"]
if os.environ.get("NLTK_DATA_ROOT"):
    import nltk

    nltk.data.path.insert(0, os.environ["NLTK_DATA_ROOT"])


def load(path, config_name=None, module_type=None, process_id=0, num_process=1, keep_in_memory=False, seed=None, **kw):
    name = path.split("/")[-1]
    package = os.path.join(tempfile.mkdtemp(prefix="evaluate_metric_"), f"evaluate_metric_{name}")
    shutil.copytree(os.path.join(REPO, "metrics", name), package)
    open(os.path.join(package, "__init__.py"), "w").close()
    if name == "bleu":
        shutil.copy(os.environ["NMT_BLEU"], os.path.join(package, "nmt_bleu.py"))
    sys.path.insert(0, os.path.dirname(package))
    module = importlib.import_module(f"evaluate_metric_{name}.{name}")
    cls = next(
        v for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, evaluate.EvaluationModule)
        and v not in (evaluate.Metric, evaluate.EvaluationModule)
    )
    m = cls(config_name=config_name, process_id=process_id, num_process=num_process,
            keep_in_memory=keep_in_memory, seed=seed, **kw)
    m.download_and_prepare()
    return m


evaluate.load = load
evaluate.loading.load = load  # what evaluate.combine loads names with
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
