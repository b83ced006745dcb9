# The dependency order of the C++ core (docs/design.md, "Layers"): each folder
# of cpp/ may include headers of the folders listed for it, and its own; every
# other include of a cpp/ folder is an upward (or sideways) dependency and
# fails the build (check_layers.cmake). A new folder must be declared here.
#
#   base -> config, stats, isa -> components (trace, cache, dram, icnt, ldst,
#   sm, mem, ptx) -> sim -> bindings
#
# Inside the components layer the order is explicit too, so that no two
# components include each other (the sm <-> ldst cycle this replaced).
set(ACCELSIM_LAYER_base "")
set(ACCELSIM_LAYER_config base)
set(ACCELSIM_LAYER_stats base)
set(ACCELSIM_LAYER_isa base)
set(_below_components base config stats isa)
set(ACCELSIM_LAYER_trace ${_below_components})
set(ACCELSIM_LAYER_cache ${_below_components})
set(ACCELSIM_LAYER_dram ${_below_components})
set(ACCELSIM_LAYER_icnt ${_below_components})
set(ACCELSIM_LAYER_ptx ${_below_components} trace)
set(ACCELSIM_LAYER_ldst ${_below_components} trace cache)
set(ACCELSIM_LAYER_sm ${_below_components} trace cache ldst)
set(ACCELSIM_LAYER_mem ${_below_components} cache dram icnt)
set(ACCELSIM_LAYER_sim ${_below_components} trace cache dram icnt ptx ldst sm mem)
# The C++ behaviour tests may include anything; they are not part of the core.
set(ACCELSIM_LAYER_FOLDERS base config stats isa trace cache dram icnt ptx ldst sm mem sim)
