// Ctrl-C in a simulated program: the runtime stops the simulation where it
// is and ends the program with the result so far (exit status 130). The
// handler only sets a flag and wakes a watcher thread (async-signal-safe);
// a run in progress sees the flag at its next poll, and when the program is
// in its own host code the watcher ends it, holding the runtime's lock so
// no API call is half done. A second Ctrl-C ends the program at once.
#pragma once
#include <cstdint>

namespace accelsim::cudart {

void install_signal_handlers();
bool interrupt_requested();

// fault_signals.cpp: a program dying of SIGSEGV, SIGBUS, SIGFPE, SIGILL or
// SIGABRT gets a line naming the signal, what it means and where, before
// the signal's default action ends it. The runtime tells it the end of the
// simulated device memory (to recognise a host dereference of a device
// pointer) and which thread is inside a CUDA call.
void install_fault_handlers();
void note_device_end(uint64_t end);
void note_api_thread(bool entering);

}  // namespace accelsim::cudart
