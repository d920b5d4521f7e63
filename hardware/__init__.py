"""The LED cribbage board: protocol, host driver, simulator and firmware."""
