"""The GC paper's numbers and names that the GC experiment's tables stand beside: the policies
and drives of its Tables 5-12, the AVG columns of those tables and the paper's policy labels."""

POLICIES = ["greedy", "lazy", "mov10", "mov100", "exp0.1", "exp0.3", "rl", "rl-aggr"]
DRIVES = ["tlc-gc-512gb", "tlc-gc-128gb"]
PAGE = {"tlc-gc-512gb": (768, 16384), "tlc-gc-128gb": (384, 8192)}  # pages/block, page bytes

# The paper's averages (AVG columns) of Tables 5-12.
PAPER = {
    "tlc-gc-512gb": {
        "lat": {
            "p99_9999": {"greedy": 1813, "rl": 0.86, "rl-aggr": 0.76},
            "p99_99": {"greedy": 1823, "rl": 0.94, "rl-aggr": 0.71},
            "p99": {"greedy": 568, "rl": 0.92, "rl-aggr": 0.92},
        },
        "erase": {"greedy": 2.72, "rl": 1.00, "rl-aggr": 1.00},
        "pred": {
            "p99_9999": {"rl-aggr": 0.76, "mov10": 0.94, "mov100": 1.01, "exp0.1": 0.97, "exp0.3": 0.94},
            "p99_99": {"rl-aggr": 0.71, "mov10": 0.86, "mov100": 0.99, "exp0.1": 0.95, "exp0.3": 0.88},
            "p99": {"rl-aggr": 0.92, "mov10": 0.97, "mov100": 0.97, "exp0.1": 0.97, "exp0.3": 0.97},
        },
        "std": {
            "p99_9999": {"rl": 0.038, "rl-aggr": 0.019},
            "p99_99": {"rl": 0.016, "rl-aggr": 0.008},
            "p99": {"rl": 0.001, "rl-aggr": 0.001},
        },
        "tables": (5, 7, 9, 11),
    },
    "tlc-gc-128gb": {
        "lat": {
            "p99_9999": {"greedy": 509, "rl": 0.86, "rl-aggr": 0.66},
            "p99_99": {"greedy": 238, "rl": 0.79, "rl-aggr": 0.64},
            "p99": {"greedy": 82.4, "rl": 0.80, "rl-aggr": 0.67},
        },
        "erase": {"greedy": 1.20, "rl": 1.21, "rl-aggr": 1.03},
        "pred": {
            "p99_9999": {"rl-aggr": 0.66, "mov10": 0.92, "mov100": 1.43, "exp0.1": 1.06, "exp0.3": 0.97},
            "p99_99": {"rl-aggr": 0.64, "mov10": 0.89, "mov100": 1.07, "exp0.1": 0.96, "exp0.3": 0.93},
            "p99": {"rl-aggr": 0.67, "mov10": 0.93, "mov100": 1.00, "exp0.1": 0.96, "exp0.3": 0.92},
        },
        "std": {
            "p99_9999": {"rl": 0.037, "rl-aggr": 0.028},
            "p99_99": {"rl": 0.018, "rl-aggr": 0.011},
            "p99": {"rl": 0.002, "rl-aggr": 0.000},
        },
        "tables": (6, 8, 10, 12),
    },
}
PCTS = [("p99_9999", "99.9999th"), ("p99_99", "99.99th"), ("p99", "99th")]
LABEL = {
    "greedy": "Page",
    "lazy": "Lazy",
    "rl": "Base",
    "rl-aggr": "Aggr",
    "mov10": "Mov10",
    "mov100": "Mov100",
    "exp0.1": "Exp0.1",
    "exp0.3": "Exp0.3",
}
