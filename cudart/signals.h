// Ctrl-C in a simulated program: the runtime stops the simulation where it
// is and ends the program with the result so far (exit status 130). The
// handler only sets a flag and wakes a watcher thread (async-signal-safe);
// a run in progress sees the flag at its next poll, and when the program is
// in its own host code the watcher ends it, holding the runtime's lock so
// no API call is half done. A second Ctrl-C ends the program at once.
#pragma once

namespace accelsim::cudart {

void install_signal_handlers();
bool interrupt_requested();

}  // namespace accelsim::cudart
