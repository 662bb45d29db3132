// HCI module.
