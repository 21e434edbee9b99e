// The RL unit's SystemVerilog sources, one path per line relative to this file, in
// elaboration order. Read by the verilate() calls (controller/rtl/CMakeLists.txt), the RTL
// lint tests (tests/rl/CMakeLists.txt) and `ssdtlm hwcost`. qrl_ram_1r1w.sv is the RAM
// wrapper (black-boxed by hwcost's logic flow); harness/ files are not listed here.
qrl_pkg.sv
qrl_core.sv
qrl_learn.sv
qrl_frozen.sv
qrl_qadd.sv
qrl_padd.sv
qrl_qaddr.sv
qrl_decide.sv
qrl_reward.sv
qrl_lfsr.sv
qrl_winner.sv
qrl_kth.sv
qrl_kprod.sv
qrl_popcnt.sv
qrl_ram_1r1w.sv
