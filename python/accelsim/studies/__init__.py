"""Research studies built on the simulator: PTX mode against SASS-trace replay
(``ptx_vs_sass``: the tables of docs/ptx_vs_sass.md), lowered against
SASS-guided PTX records (``sass_compare``: docs/results.md), and the
graphs their BFS kernels run on (``graphs``). Each study is a module that can
be run (``python -m accelsim.studies.<study>``); none is imported by the
simulator or its front ends."""
