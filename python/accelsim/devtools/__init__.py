"""Developer tools that keep accelsim robust: parser fuzzing
(``python -m accelsim.devtools.fuzz``), hostile example inputs
(``accelsim.devtools.hostile``) and the bad-input catalogue generator
(``python -m accelsim.devtools.catalogue``). See docs/reliability.md."""
