"""aintern-ls: run shell command fences from Markdown runbooks and AI chats, safely."""

__version__ = "0.1.0"
