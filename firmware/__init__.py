"""The app on the board: wires rules_core to hardware (the main loop, screens, referee keymaps,
clocks, the power-safe journal and the serial endpoint). Built in a later issue."""
