"""The Android entry point (buildozer.spec ``entrypoint``): start the app."""

from companion.ui import run

if __name__ == "__main__":
    run()
