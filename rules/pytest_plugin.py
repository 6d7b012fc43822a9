"""pytest plugin: collects every worked example in a game's rulebook as a test item.

(The collection arrives with the rules engine.)
"""
